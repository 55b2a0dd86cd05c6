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
import io.netty.channel.socket.nio.NioDomainSocketChannel;
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
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ClosedChannelException;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * A getBlobs client of one Engine API endpoint over HTTP, by JSON-RPC or by the REST routes of execution-apis #793
 * ({@code POST} to the URL's path followed by {@code /engine/v1/blobs/v1} to {@code /v4}, SSZ both ways, read by an
 * {@link SszBlobsReader}): one connection (TCP, or the Unix domain socket of {@link Builder#ipcPath(Path)}), made on
 * the first call and again if the server has closed it, each request with a fresh HS256 JWT ({@code iat} now;
 * execution-apis {@code authentication.md}), and each response read as it arrives by an {@link HttpResponseReader}
 * (JSON-RPC ones through the codec's {@link io.hexstream.codec.json.JsonHexReader}; another status than 200 is one line
 * with the server's reason, {@code HTTP 401 Unauthorized: wrong signature: …}): the entries of its result reach the
 * call's {@link BlobsListener} one by one, decoded into pooled direct buffers, the first long before the last byte of
 * the body. Bodies of any framing (Content-Length, chunked, DATA frames) and any layout the JSON spec allows are read;
 * a body is bounded by its call (the readers refuse it past the most it allows), a response head by
 * {@value #MAX_HEADER_LIST_SIZE} bytes.
 *
 * <p>HTTP/1.1 by default: calls pipelined on the kept-alive connection, answered in the order made. With
 * {@link Builder#http2(boolean)}, h2c with prior knowledge (RFC 9113, section 3.3; #793, "Transport &amp; framing":
 * {@code INITIAL_WINDOW_SIZE} {@value #HTTP2_WINDOW_SIZE} bytes and the connection's window opened to match): each call
 * is a stream of its own with its own JWT, up to {@link Builder#maxConcurrentStreams(int)} and the server's
 * {@code MAX_CONCURRENT_STREAMS} at once (later calls wait for a stream to close), each answered as its DATA frames
 * arrive, by the same readers; after the server's {@code GOAWAY} new calls go on a new connection; a refusal (say
 * {@code 401}) or a {@code RST_STREAM} fails its own call only ({@code stream reset by the server: CANCEL}), the loss
 * of the connection every call under way.
 *
 * <p>Made by a {@link #builder(EndpointUrl)}. Paced ({@link Builder#paced(boolean)}), the socket is read only while the
 * caller wants ({@link #pause()}, {@link #resume()}), for a listener handing entries to bounded work; over HTTP/2,
 * pausing stops the reading of every stream open (and of those opened while paused), and the server stops sending on
 * each at its window, so what is held is at most the connection's window.
 *
 * <p>Thread-safe; {@link #pause()} and {@link #resume()} may be called from a listener. Calls must not be made from the
 * client's own event loop (connecting waits).
 */
public final class GetBlobsClient implements BlobsClient {
    /**
     * The {@code INITIAL_WINDOW_SIZE} advertised over HTTP/2, bytes: the 1 MiB execution-apis #793 asks for at least.
     */
    public static final int HTTP2_WINDOW_SIZE = 1 << 20;

    /**
     * The largest response head taken, bytes: HTTP/1.1's header block, HTTP/2's {@code MAX_HEADER_LIST_SIZE} (RFC 9113,
     * section 6.5.2: names, values and 32 bytes an entry; a deliberate bound where #793 leaves HTTP/2's default,
     * unlimited).
     */
    public static final int MAX_HEADER_LIST_SIZE = 8192;

    /** The streams open at once over HTTP/2 unless the builder says ({@link Builder#maxConcurrentStreams(int)}). */
    public static final int DEFAULT_MAX_CONCURRENT_STREAMS = 16;

    /** The HTTP decoder's largest content piece: a socket read's worth. */
    private static final int MAX_CHUNK = 1 << 16;

    private static final int CONNECT_TIMEOUT_MS = 10_000;

    private final EndpointUrl url;
    private final SocketAddress address;
    private final Supplier<String> tokens;
    private final boolean ssz;
    private final boolean http2;
    private final EventLoopGroup group;
    private final Bootstrap bootstrap;
    /** Written under the lock; read without it by {@link #pause()} and {@link #resume()}, which an event loop calls. */
    private volatile Channel channel;

    private long nextId = 1;

    private GetBlobsClient(Builder builder) {
        this.url = builder.url;
        this.tokens = builder.tokens;
        this.ssz = builder.ssz;
        this.http2 = builder.http2;
        boolean paced = builder.paced;
        this.address = builder.ipcPath != null
                ? UnixDomainSocketAddress.of(builder.ipcPath)
                : InetSocketAddress.createUnresolved(url.host(), url.port());
        this.group = new MultiThreadIoEventLoopGroup(
                1, new DefaultThreadFactory("hexstream-client", true), NioIoHandler.newFactory());
        this.bootstrap = new Bootstrap()
                .group(group)
                .channel(builder.ipcPath != null ? NioDomainSocketChannel.class : NioSocketChannel.class)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, CONNECT_TIMEOUT_MS)
                .handler(
                        http2
                                ? Http2StreamsHandler.initializer(builder.maxStreams, paced)
                                : new ChannelInitializer<Channel>() {
                                    @Override
                                    protected void initChannel(Channel ch) {
                                        ch.pipeline()
                                                .addLast(
                                                        new HttpClientCodec(4096, MAX_HEADER_LIST_SIZE, MAX_CHUNK),
                                                        new BodyCounter(),
                                                        new HttpResponseReader(paced));
                                    }
                                });
        if (builder.ipcPath == null) {
            bootstrap.option(ChannelOption.TCP_NODELAY, true);
        }
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
        BodyCounter counter = http2 ? new BodyCounter() : ch.pipeline().get(BodyCounter.class);
        CompletableFuture<BlobsOutcome> outcome;
        HttpExchange exchange;
        if (ssz) {
            SszBlobsResponse response = new SszBlobsResponse(call, listener, ch.alloc(), System.nanoTime());
            exchange = new HttpExchange(sszRequest(call), response);
            outcome = response.outcome();
        } else {
            long id = nextId++;
            byte[] body = JsonGetBlobs.requestBody(call, id);
            JsonBlobsReader reader =
                    new JsonBlobsReader(call, id, listener, ch.alloc(), counter::bytes, System.nanoTime());
            exchange = new HttpExchange(
                    post(url.target(), body, HttpHeaderValues.APPLICATION_JSON), new JsonBlobsResponse(reader));
            outcome = reader.outcome();
        }
        ch.writeAndFlush(http2 ? new Http2StreamsHandler.StreamExchange(exchange, counter) : exchange);
        return outcome;
    }

    private FullHttpRequest sszRequest(GetBlobsCall call) {
        String base = url.target().endsWith("/")
                ? url.target().substring(0, url.target().length() - 1)
                : url.target();
        return post(
                base + SszGetBlobs.route(call.method()),
                SszGetBlobs.requestBody(call),
                HttpHeaderValues.APPLICATION_OCTET_STREAM);
    }

    /**
     * A POST of {@code body} to {@code target} with a fresh token (if the client has tokens), sending and accepting
     * {@code mediaType}; over HTTP/2 its {@code Host} becomes {@code :authority} (RFC 9113, section 8.3.1).
     */
    private FullHttpRequest post(String target, byte[] body, CharSequence mediaType) {
        FullHttpRequest request =
                new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, target, Unpooled.wrappedBuffer(body));
        request.headers()
                .set(HttpHeaderNames.HOST, url.hostHeader())
                .set(HttpHeaderNames.CONTENT_TYPE, mediaType)
                .set(HttpHeaderNames.ACCEPT, mediaType)
                .setInt(HttpHeaderNames.CONTENT_LENGTH, body.length);
        if (tokens != null) {
            request.headers().set(HttpHeaderNames.AUTHORIZATION, "Bearer " + tokens.get());
        }
        return request;
    }

    @Override
    public void pause() {
        Channel ch = channel;
        if (ch != null && http2) {
            ch.pipeline().get(Http2StreamsHandler.class).pause();
        } else if (ch != null) {
            ch.pipeline().get(HttpResponseReader.class).pause();
        }
    }

    @Override
    public void resume() {
        Channel ch = channel;
        if (ch != null && http2) {
            ch.pipeline().get(Http2StreamsHandler.class).resume();
        } else if (ch != null) {
            ch.pipeline().get(HttpResponseReader.class).resume();
        }
    }

    private Channel connected() throws IOException, InterruptedException {
        Channel ch = channel;
        if (usable(ch)) {
            return ch;
        }
        ChannelFuture connect = bootstrap.connect(address).await();
        if (!connect.isSuccess()) {
            throw new IOException("cannot connect to " + where() + ": " + reason(connect.cause()), connect.cause());
        }
        if (http2) {
            try {
                connect.channel()
                        .pipeline()
                        .get(Http2StreamsHandler.class)
                        .ready()
                        .get(CONNECT_TIMEOUT_MS, TimeUnit.MILLISECONDS);
            } catch (ExecutionException | TimeoutException e) {
                connect.channel().close();
                Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
                throw new IOException("no HTTP/2 (h2c) at " + where() + ": " + reason(cause), cause);
            }
        }
        channel = connect.channel();
        return channel;
    }

    /** Whether {@code ch} takes calls: open, and over HTTP/2 not left by the server ({@code GOAWAY}). */
    private boolean usable(Channel ch) {
        if (ch == null || !ch.isActive()) {
            return false;
        }
        Http2StreamsHandler streams = http2 ? ch.pipeline().get(Http2StreamsHandler.class) : null;
        return !http2 || streams != null && !streams.goingAway();
    }

    /** The endpoint as an operator names it: {@code host:port}, or the socket's path. */
    private String where() {
        return address instanceof UnixDomainSocketAddress ipc
                ? ipc.getPath().toString()
                : url.host() + ":" + url.port();
    }

    private static String reason(Throwable cause) {
        if (cause instanceof ClosedChannelException) {
            return "the connection closed";
        }
        if (cause instanceof TimeoutException) {
            return "no SETTINGS within " + CONNECT_TIMEOUT_MS + " ms";
        }
        return cause.getMessage() != null
                ? cause.getMessage()
                : cause.getClass().getSimpleName();
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

    /**
     * A builder of a client of {@code url}: JSON-RPC over HTTP/1.1 on TCP, not paced, until told otherwise; its tokens
     * must be given (but over IPC).
     */
    public static Builder builder(EndpointUrl url) {
        return new Builder(url);
    }

    /** The settings of a {@link GetBlobsClient}; {@link #build()} makes one (no connection yet). */
    public static final class Builder {
        private final EndpointUrl url;
        private Supplier<String> tokens;
        private boolean paced;
        private boolean ssz;
        private boolean http2;
        private int maxStreams = DEFAULT_MAX_CONCURRENT_STREAMS;
        private Path ipcPath;

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
         * Whether calls go over h2c with prior knowledge (RFC 9113, section 3.3), each a stream of its own on one
         * connection, rather than HTTP/1.1; not by default. The server must speak HTTP/2 from the first byte: the
         * client sends the connection preface and never falls back.
         */
        public Builder http2(boolean http2) {
            this.http2 = http2;
            return this;
        }

        /**
         * The most streams open at once over HTTP/2 (the server's {@code MAX_CONCURRENT_STREAMS} bounds them too);
         * calls past it wait for a stream to close. Default {@value GetBlobsClient#DEFAULT_MAX_CONCURRENT_STREAMS}.
         *
         * @throws IllegalArgumentException if {@code maxStreams} is less than 1
         */
        public Builder maxConcurrentStreams(int maxStreams) {
            if (maxStreams < 1) {
                throw new IllegalArgumentException("maxConcurrentStreams is at least 1, got " + maxStreams);
            }
            this.maxStreams = maxStreams;
            return this;
        }

        /**
         * Connects to the Unix domain socket {@code path} (the Engine API's IPC endpoint speaking HTTP, #793: "IPC is
         * h2c over UNIX socket") rather than to the URL's host and port; the URL still gives the request target and the
         * {@code Host} (or {@code :authority}). Without tokens, requests carry no JWT: the file's permissions are the
         * gate.
         */
        public Builder ipcPath(Path path) {
            this.ipcPath = path;
            return this;
        }

        /**
         * The client.
         *
         * @throws IllegalStateException if neither {@link #jwtSecret(byte[])} nor {@link #tokens(Supplier)} was given
         *     for a TCP endpoint
         */
        public GetBlobsClient build() {
            if (tokens == null && ipcPath == null) {
                throw new IllegalStateException("a GetBlobsClient needs its JWT secret or tokens");
            }
            return new GetBlobsClient(this);
        }
    }
}
