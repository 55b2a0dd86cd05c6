package io.hexstream.client;

import io.hexstream.codec.http.HttpExchange;
import io.hexstream.codec.http.HttpResponseReader;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * A getBlobs client of one Engine API endpoint over HTTP/1.1, by JSON-RPC or by the REST routes of execution-apis #793
 * ({@code POST} to the URL's path followed by {@code /engine/v1/blobs/v1} to {@code /v4}, SSZ both ways, read by an
 * {@link SszBlobsReader}): one kept-alive connection (made on the first call, and again if the server has closed it),
 * each request with a fresh HS256 JWT ({@code iat} now; execution-apis {@code authentication.md}), calls pipelined in
 * the order made, and each response read as it arrives by an {@link HttpResponseReader} (JSON-RPC ones through the
 * codec's {@link io.hexstream.codec.json.JsonHexReader}; another status than 200 is one line with the server's reason,
 * {@code HTTP 401 Unauthorized: wrong signature: …}): the entries of its result reach the call's {@link BlobsListener}
 * one by one, decoded into pooled direct buffers, the first long before the last byte of the body. Bodies of any
 * framing (Content-Length, chunked) and any layout the JSON spec allows are read.
 *
 * <p>Made by a {@link #builder(EndpointUrl)}. Paced ({@link Builder#paced(boolean)}), the socket is read only while the
 * caller wants ({@link #pause()}, {@link #resume()}), for a listener handing entries to bounded work.
 *
 * <p>Thread-safe; {@link #pause()} and {@link #resume()} may be called from a listener. Calls must not be made from the
 * client's own event loop (connecting waits).
 */
public final class GetBlobsClient implements BlobsClient {
    /** The HTTP decoder's largest content piece: a socket read's worth. */
    private static final int MAX_CHUNK = 1 << 16;

    private static final int CONNECT_TIMEOUT_MS = 10_000;

    private final EndpointUrl url;
    private final Supplier<String> tokens;
    private final boolean paced;
    private final boolean ssz;
    private final EventLoopGroup group;
    private final Bootstrap bootstrap;
    /** Written under the lock; read without it by {@link #pause()} and {@link #resume()}, which an event loop calls. */
    private volatile Channel channel;

    private long nextId = 1;

    private GetBlobsClient(Builder builder) {
        this.url = builder.url;
        this.tokens = builder.tokens;
        this.paced = builder.paced;
        this.ssz = builder.ssz;
        boolean paced = this.paced;
        this.group = new MultiThreadIoEventLoopGroup(
                1, new DefaultThreadFactory("hexstream-client", true), NioIoHandler.newFactory());
        this.bootstrap = new Bootstrap()
                .group(group)
                .channel(NioSocketChannel.class)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, CONNECT_TIMEOUT_MS)
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline()
                                .addLast(
                                        new HttpClientCodec(4096, 8192, MAX_CHUNK),
                                        new BodyCounter(),
                                        new HttpResponseReader(paced));
                    }
                });
    }

    /**
     * Sends {@code call}; its result's entries go to {@code listener} as they are decoded.
     *
     * @return completes with the outcome once the body has ended and was a well-formed result; fails with
     *     {@link RpcErrorException} (a JSON-RPC error), {@link BadResponseException} (another HTTP status, malformed
     *     SSZ), {@link GetBlobsResponseException} (malformed JSON or hex, a result of another shape, with its path and
     *     byte offset), or the I/O failure that ended the connection
     * @throws IOException if the connection cannot be made
     */
    @Override
    public synchronized CompletableFuture<BlobsOutcome> call(GetBlobsCall call, BlobsListener listener)
            throws IOException, InterruptedException {
        Channel ch = connected();
        if (ssz) {
            return sszCall(ch, call, listener);
        }
        long id = nextId++;
        byte[] body = JsonGetBlobs.requestBody(call, id);
        FullHttpRequest request = post(url.target(), body, HttpHeaderValues.APPLICATION_JSON);
        JsonBlobsReader reader = new JsonBlobsReader(
                call, id, listener, ch.alloc(), ch.pipeline().get(BodyCounter.class)::bytes, System.nanoTime());
        ch.writeAndFlush(new HttpExchange(request, new JsonBlobsResponse(reader)));
        return reader.outcome();
    }

    private CompletableFuture<BlobsOutcome> sszCall(Channel ch, GetBlobsCall call, BlobsListener listener) {
        byte[] body = SszGetBlobs.requestBody(call);
        String base = url.target().endsWith("/")
                ? url.target().substring(0, url.target().length() - 1)
                : url.target();
        FullHttpRequest request =
                post(base + SszGetBlobs.route(call.method()), body, HttpHeaderValues.APPLICATION_OCTET_STREAM);
        SszBlobsResponse response = new SszBlobsResponse(call, listener, ch.alloc(), System.nanoTime());
        ch.writeAndFlush(new HttpExchange(request, response));
        return response.outcome();
    }

    /** A POST of {@code body} to {@code target} with a fresh token, sending and accepting {@code mediaType}. */
    private FullHttpRequest post(String target, byte[] body, CharSequence mediaType) {
        FullHttpRequest request =
                new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, target, Unpooled.wrappedBuffer(body));
        request.headers()
                .set(HttpHeaderNames.HOST, url.hostHeader())
                .set(HttpHeaderNames.AUTHORIZATION, "Bearer " + tokens.get())
                .set(HttpHeaderNames.CONTENT_TYPE, mediaType)
                .set(HttpHeaderNames.ACCEPT, mediaType)
                .setInt(HttpHeaderNames.CONTENT_LENGTH, body.length);
        return request;
    }

    @Override
    public void pause() {
        Channel ch = channel;
        if (ch != null) {
            ch.pipeline().get(HttpResponseReader.class).pause();
        }
    }

    @Override
    public void resume() {
        Channel ch = channel;
        if (ch != null) {
            ch.pipeline().get(HttpResponseReader.class).resume();
        }
    }

    private Channel connected() throws IOException, InterruptedException {
        if (channel != null && channel.isActive()) {
            return channel;
        }
        ChannelFuture connect = bootstrap.connect(url.host(), url.port()).await();
        if (!connect.isSuccess()) {
            Throwable cause = connect.cause();
            throw new IOException(
                    "cannot connect to " + url.host() + ":" + url.port() + ": "
                            + (cause.getMessage() != null
                                    ? cause.getMessage()
                                    : cause.getClass().getSimpleName()),
                    cause);
        }
        channel = connect.channel();
        return channel;
    }

    /** Not synchronized: it may end a call that is connecting, from another thread. */
    @Override
    public void close() {
        Channel ch = channel;
        if (ch != null) {
            ch.close().awaitUninterruptibly();
        }
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly();
    }

    /** A builder of a client of {@code url}: JSON-RPC, not paced, until told otherwise; its tokens must be given. */
    public static Builder builder(EndpointUrl url) {
        return new Builder(url);
    }

    /** The settings of a {@link GetBlobsClient}; {@link #build()} makes one (no connection yet). */
    public static final class Builder {
        private final EndpointUrl url;
        private Supplier<String> tokens;
        private boolean paced;
        private boolean ssz;

        private Builder(EndpointUrl url) {
            this.url = url;
        }

        /** Signs each request with a fresh {@link JwtSigner} token of the 32-byte {@code secret}. */
        public Builder jwtSecret(byte[] secret) {
            return tokens(new JwtSigner(secret));
        }

        /** Signs each request with the next of {@code tokens} (a JWT, without {@code Bearer}). */
        public Builder tokens(Supplier<String> tokens) {
            this.tokens = tokens;
            return this;
        }

        /**
         * Whether the socket is read only while {@link GetBlobsClient#resume()}d (it starts reading); not by default.
         */
        public Builder paced(boolean paced) {
            this.paced = paced;
            return this;
        }

        /** Whether calls go to the REST routes of execution-apis #793 (SSZ) rather than JSON-RPC; not by default. */
        public Builder ssz(boolean ssz) {
            this.ssz = ssz;
            return this;
        }

        /**
         * The client.
         *
         * @throws IllegalStateException if neither {@link #jwtSecret(byte[])} nor {@link #tokens(Supplier)} was given
         */
        public GetBlobsClient build() {
            if (tokens == null) {
                throw new IllegalStateException("a GetBlobsClient needs its JWT secret or tokens");
            }
            return new GetBlobsClient(this);
        }
    }
}
