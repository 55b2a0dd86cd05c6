package io.hexstream.jmh.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import io.hexstream.client.CellIndices;
import io.hexstream.client.VersionedHash;
import io.hexstream.jmh.BesuBlobsJson;
import io.hexstream.jmh.BesuResponseStream;
import io.hexstream.jmh.JacksonCellStrings;
import io.hexstream.server.auth.JwtAuthenticator;
import io.hexstream.server.blob.BlobEntry;
import io.hexstream.server.http.EngineServer;
import io.hexstream.server.pool.DurableBlobPool;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.AttributeKey;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * Besu's path for {@code engine_getBlobsV2}, end to end, as the peer to beat: Vert.x HTTP over Netty with the JWT
 * checked on every request
 * ({@code ethereum/api/src/main/java/org/hyperledger/besu/ethereum/api/jsonrpc/JsonRpcHttpService.java}), the request
 * body read as a Jackson tree, the method run on a worker thread (Vert.x's blocking handlers: a pool of 20, its
 * default), Besu main's {@code EngineGetBlobsV2}: a {@code BlobAndProofV2} per pooled blob holding the pool's values,
 * made one after another ({@link BesuPoolValues}), and the reply serialised by Besu's writer, each blob and proof a
 * {@code String} by tuweni's {@code toFastHex} as it is written ({@link BesuBlobsJson}, which names the Besu files and
 * commits), into {@link BesuResponseStream} ({@code .../api/handlers/JsonRpcObjectExecutor.java},
 * {@code .../jsonrpc/JsonResponseStreamer.java}): each ~8 KB flush copied into its own heap buffer and written, from
 * the worker thread, as one chunk of a chunked response. Each write is handed to the event loop as Vert.x's
 * {@code ConnectionBase.writeToChannel} does from another thread: queued as a task, written there, and flushed only
 * when no write of the connection is still queued (so a worker that serialises faster than the loop writes gets its
 * flushes coalesced); Netty copies each heap chunk into a direct buffer on the way. Before each chunk the worker waits
 * while the channel is not writable (Vert.x's {@code writeQueueFull}) until it turns writable again, up to 60 s, as
 * Besu's {@code JsonResponseStreamer} does through {@code .../jsonrpc/StreamBackpressure.java}. Single
 * {@code engine_getBlobsV2} or {@code engine_getBlobsV4} requests only (V4: a {@code String} per selected cell and
 * proof, {@code .../internal/methods/engine/EngineGetBlobsV4.java} and
 * {@code .../internal/results/BlobCellsAndProofsV1.java}).
 *
 * <p>Its threads are named {@code hexstream-io-besu*}, so that the end-to-end benchmark counts the heap they allocate
 * as it counts the product's I/O threads'.
 */
final class BesuLikeServer implements AutoCloseable {
    /** Vert.x's default worker pool size, where Besu runs its JSON-RPC methods. */
    static final int WORKERS = 20;

    private final EventLoopGroup group;
    private final ExecutorService workers;
    private final Channel channel;

    private BesuLikeServer(EventLoopGroup group, ExecutorService workers, Channel channel) {
        this.group = group;
        this.workers = workers;
        this.channel = channel;
    }

    /** Serves {@code pool} on a free loopback port, with JWTs checked against {@code secret}. */
    static BesuLikeServer start(DurableBlobPool pool, byte[] secret) throws InterruptedException {
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(
                0, new DefaultThreadFactory(EngineServer.IO_THREADS + "-besu", true), NioIoHandler.newFactory());
        ExecutorService workers = Executors.newFixedThreadPool(
                WORKERS, new DefaultThreadFactory(EngineServer.IO_THREADS + "-besu-worker", true));
        Handler handler = new Handler(pool, new JwtAuthenticator(secret, Clock.systemUTC()), workers);
        Channel channel = new ServerBootstrap()
                .group(group)
                .channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(16 << 20), handler);
                    }
                })
                .bind("127.0.0.1", 0)
                .sync()
                .channel();
        return new BesuLikeServer(group, workers, channel);
    }

    InetSocketAddress address() {
        return (InetSocketAddress) channel.localAddress();
    }

    @Override
    public void close() {
        channel.close().syncUninterruptibly();
        workers.shutdownNow();
        group.shutdownGracefully(0, 5, TimeUnit.SECONDS).syncUninterruptibly();
    }

    @Sharable
    private static final class Handler extends SimpleChannelInboundHandler<FullHttpRequest> {
        private static final ObjectMapper MAPPER = BesuBlobsJson.mapper();
        private static final ObjectWriter WRITER = BesuBlobsJson.writer();

        private final DurableBlobPool pool;
        private final JwtAuthenticator authenticator;
        private final ExecutorService workers;
        private final BesuPoolValues values = new BesuPoolValues();

        Handler(DurableBlobPool pool, JwtAuthenticator authenticator, ExecutorService workers) {
            this.pool = pool;
            this.authenticator = authenticator;
            this.workers = workers;
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
            boolean keepAlive = HttpUtil.isKeepAlive(request);
            if (authenticator.refusal(request.headers().get(HttpHeaderNames.AUTHORIZATION)) != null) {
                DefaultFullHttpResponse refused = new DefaultFullHttpResponse(
                        request.protocolVersion(), HttpResponseStatus.UNAUTHORIZED, Unpooled.EMPTY_BUFFER);
                HttpUtil.setContentLength(refused, 0);
                ctx.writeAndFlush(refused).addListener(ChannelFutureListener.CLOSE);
                return;
            }
            byte[] body = ByteBufUtil.getBytes(request.content());
            Channel channel = ctx.channel();
            workers.execute(() -> respond(channel, body, keepAlive));
        }

        /** On a worker thread, as Besu's blocking handler: the method, then the reply streamed. */
        private void respond(Channel channel, byte[] body, boolean keepAlive) {
            try {
                JsonNode tree = MAPPER.readTree(body);
                JsonNode hashes = tree.get("params").get(0);
                VersionedHash[] keys = new VersionedHash[hashes.size()];
                for (int i = 0; i < keys.length; i++) {
                    keys[i] = VersionedHash.decode(hashes.get(i).asText());
                }
                Object result = tree.get("method").asText().equals("engine_getBlobsV4")
                        ? cellsAndProofs(
                                pool.getAll(keys),
                                CellIndices.decode(tree.get("params").get(1).asText()))
                        : values.blobsAndProofs(Arrays.asList(pool.getAll(keys)));
                HttpResponse head = new DefaultHttpResponse(
                        io.netty.handler.codec.http.HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
                head.headers().set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_JSON);
                HttpUtil.setTransferEncodingChunked(head, true);
                HttpUtil.setKeepAlive(head, keepAlive);
                VertxWrites writes = new VertxWrites(channel);
                writes.write(head, false, false);
                WRITER.writeValue(
                        new BesuResponseStream(chunk -> {
                            writes.awaitDrain();
                            writes.write(new DefaultHttpContent(chunk), false, false);
                        }),
                        new BesuBlobsJson.Response("2.0", tree.get("id").toString(), result));
                writes.write(LastHttpContent.EMPTY_LAST_CONTENT, true, !keepAlive);
            } catch (IOException | RuntimeException e) {
                channel.close();
            }
        }

        /**
         * {@code engine_getBlobsV4} ({@code .../internal/methods/engine/EngineGetBlobsV4.java}): a
         * {@code BlobCellsAndProofsV1} of Strings per blob, {@code null} where missing or without cell proofs.
         */
        private static List<JacksonCellStrings.BlobCellsAndProofsV1> cellsAndProofs(
                BlobEntry[] entries, CellIndices cells) {
            List<JacksonCellStrings.BlobCellsAndProofsV1> result = new ArrayList<>(entries.length);
            for (BlobEntry entry : entries) {
                result.add(
                        entry == null || entry.cellProofs() == null
                                ? null
                                : JacksonCellStrings.cellsAndProofs(
                                        entry.blob(), entry.extensionCells(), entry.cellProofs(), cells.cellList()));
            }
            return result;
        }

        @Override
        public void channelWritabilityChanged(ChannelHandlerContext ctx) {
            if (ctx.channel().isWritable()) {
                VertxWrites.drained(ctx.channel());
            }
            ctx.fireChannelWritabilityChanged();
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            VertxWrites.drained(ctx.channel()); // a worker waiting on a closed channel fails on its next write
            ctx.fireChannelInactive();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }

    /**
     * Writes from a thread that is not the channel's event loop, as Vert.x 4's {@code ConnectionBase.queueForWrite}:
     * each message a task on the loop, flushed when it is the last one queued (or when {@code flush} forces it);
     * {@code close} closes the connection once it is written.
     */
    private static final class VertxWrites {
        private static final AttributeKey<CountDownLatch> DRAIN = AttributeKey.valueOf("besu-drain");
        private static final long DRAIN_TIMEOUT_SECONDS = 60;

        private final Channel channel;
        private final java.util.concurrent.atomic.AtomicInteger queued =
                new java.util.concurrent.atomic.AtomicInteger();

        VertxWrites(Channel channel) {
            this.channel = channel;
        }

        /** Blocks the worker while the channel is not writable, as {@code StreamBackpressure.awaitDrain}. */
        void awaitDrain() {
            if (!channel.isWritable()) {
                CountDownLatch drained = new CountDownLatch(1);
                channel.attr(DRAIN).set(drained);
                if (!channel.isWritable() && channel.isActive()) {
                    try {
                        if (!drained.await(DRAIN_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                            throw new UncheckedIOException(
                                    new IOException("Timed out waiting for write queue to drain"));
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new UncheckedIOException(new IOException("Interrupted waiting for write queue", e));
                    }
                }
            }
        }

        /** Wakes the worker waiting on {@code channel}, if any. */
        static void drained(Channel channel) {
            CountDownLatch waiting = channel.attr(DRAIN).getAndSet(null);
            if (waiting != null) {
                waiting.countDown();
            }
        }

        void write(Object message, boolean flush, boolean close) {
            queued.incrementAndGet();
            channel.eventLoop().execute(() -> {
                ChannelFuture written = queued.decrementAndGet() == 0 || flush
                        ? channel.writeAndFlush(message)
                        : channel.write(message);
                if (close) {
                    written.addListener(ChannelFutureListener.CLOSE);
                }
            });
        }
    }
}
