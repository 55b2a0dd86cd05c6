package io.hexstream.codec.http;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hexstream.codec.json.JsonTokenListener;
import io.hexstream.codec.testing.BlobFixtures;
import io.hexstream.codec.testing.BlobFixtures.Entry;
import io.hexstream.codec.testing.GetBlobsCollector;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpVersion;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link JsonResponseReader} against a real Netty server on loopback sending getBlobsV2 bodies with
 * {@link StreamedResponseEncoder}: pipelined requests on one kept-alive connection, read paced by a consumer that
 * pauses after every entry and resumes from another thread, and a server that leaves mid-body.
 */
class JsonResponseReaderSocketTest {
    private static final List<Entry> ENTRIES = BlobFixtures.randomEntries(new Random(0x23C1), 6, 0.2);

    private EventLoopGroup group;
    private Channel server;
    private final ScheduledExecutorService consumerThread = Executors.newSingleThreadScheduledExecutor();

    @BeforeEach
    void startServer() throws InterruptedException {
        group = new MultiThreadIoEventLoopGroup(2, NioIoHandler.newFactory());
        server = new ServerBootstrap()
                .group(group)
                .channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline()
                                .addLast(
                                        new HttpServerCodec(),
                                        new HttpObjectAggregator(1024),
                                        new StreamedResponseEncoder(64 * 1024),
                                        new SimpleChannelInboundHandler<FullHttpRequest>() {
                                            @Override
                                            protected void channelRead0(
                                                    ChannelHandlerContext ctx, FullHttpRequest request) {
                                                respond(ctx, request);
                                            }
                                        });
                    }
                })
                .bind("127.0.0.1", 0)
                .sync()
                .channel();
    }

    /** The getBlobsV2 body; for {@code /leave}, its head and first 100,000 bytes, then the connection closes. */
    private static void respond(ChannelHandlerContext ctx, FullHttpRequest request) {
        if (!request.uri().equals("/leave")) {
            ctx.writeAndFlush(StreamedResponse.of(request, HttpResponseStatus.OK, BlobFixtures.body(1L, ENTRIES)));
            return;
        }
        byte[] body = BlobFixtures.jackson(1L, ENTRIES);
        HttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
        head.headers().set("Content-Length", body.length);
        ctx.write(head);
        ctx.writeAndFlush(new DefaultHttpContent(Unpooled.wrappedBuffer(body, 0, 100_000)))
                .addListener(f -> ctx.close());
    }

    @AfterEach
    void stop() throws InterruptedException {
        server.close().sync();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
        consumerThread.shutdownNow();
    }

    @Test
    void pipelinedResponsesArriveInOrderReadAsTheConsumerPaces() throws Exception {
        JsonResponseReader reader = new JsonResponseReader(true);
        Channel client = connect(reader);
        BlockingQueue<String> outcomes = new LinkedBlockingQueue<>();
        List<EntryCollector> collectors = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            EntryCollector collector = new EntryCollector("response " + i, outcomes, reader);
            collectors.add(collector);
            client.write(new JsonExchange(request("/" + i), collector));
        }
        client.flush();
        for (int i = 0; i < 3; i++) {
            assertEquals("response " + i + " complete", outcomes.poll(20, TimeUnit.SECONDS));
        }
        for (EntryCollector collector : collectors) {
            assertEquals(ENTRIES.size(), collector.entries.size());
            for (int i = 0; i < ENTRIES.size(); i++) {
                Entry want = ENTRIES.get(i);
                Entry got = collector.entries.get(i);
                assertEquals(want == null, got == null, "entry " + i);
                if (want != null) {
                    assertArrayEquals(want.blob(), got.blob(), "blob " + i);
                    assertArrayEquals(want.proofs(), got.proofs(), "proofs " + i);
                }
            }
        }
        assertTrue(collectors.get(0).pauses > 0, "paced");
        client.close().sync();
    }

    @Test
    void aServerLeavingMidBodyFailsTheExchangeAndThoseWaiting() throws Exception {
        JsonResponseReader reader = new JsonResponseReader(false);
        Channel client = connect(reader);
        BlockingQueue<String> outcomes = new LinkedBlockingQueue<>();
        client.write(new JsonExchange(request("/leave"), new EntryCollector("leave", outcomes, null)));
        client.writeAndFlush(new JsonExchange(request("/0"), new EntryCollector("next", outcomes, null)));
        String first = outcomes.poll(20, TimeUnit.SECONDS);
        assertTrue(first != null && first.startsWith("leave failed: "), first);
        String second = outcomes.poll(20, TimeUnit.SECONDS);
        assertTrue(second != null && second.startsWith("next failed: "), second);
        client.closeFuture().sync();
    }

    private Channel connect(JsonResponseReader reader) throws InterruptedException {
        return new Bootstrap()
                .group(group)
                .channel(NioSocketChannel.class)
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast(new HttpClientCodec(), reader);
                    }
                })
                .connect(server.localAddress())
                .sync()
                .channel();
    }

    private static FullHttpRequest request(String uri) {
        FullHttpRequest request = new DefaultFullHttpRequest(
                HttpVersion.HTTP_1_1, HttpMethod.POST, uri, Unpooled.copiedBuffer("{}", UTF_8));
        request.headers().set("Host", "127.0.0.1").set("Content-Length", 2).set("Content-Type", "application/json");
        return request;
    }

    /**
     * A getBlobsV2 consumer: each entry's blob and proofs into pooled direct buffers, copied out and released when the
     * entry ends ({@link GetBlobsCollector}). With a paced reader it pauses at every entry's end and resumes from
     * another thread.
     */
    private final class EntryCollector implements JsonResponseConsumer {
        private final String name;
        private final BlockingQueue<String> outcomes;
        private final GetBlobsCollector tokens = GetBlobsCollector.appended();
        final List<Entry> entries = tokens.entries();
        int pauses;

        EntryCollector(String name, BlockingQueue<String> outcomes, JsonResponseReader pacer) {
            this.name = name;
            this.outcomes = outcomes;
            if (pacer != null) {
                tokens.atEntryEnd(() -> {
                    pauses++;
                    pacer.pause();
                    consumerThread.schedule(pacer::resume, 5, TimeUnit.MILLISECONDS);
                });
            }
        }

        @Override
        public JsonTokenListener head(HttpResponse head) {
            return tokens;
        }

        @Override
        public void complete() {
            outcomes.add(name + " complete");
        }

        @Override
        public void failed(Throwable cause) {
            tokens.release();
            outcomes.add(name + " failed: " + cause);
        }
    }
}
