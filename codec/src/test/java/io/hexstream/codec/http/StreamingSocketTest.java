package io.hexstream.codec.http;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hexstream.codec.json.JsonBody;
import io.hexstream.codec.testing.BlobFixtures;
import io.hexstream.codec.testing.BlobFixtures.Entry;
import io.hexstream.codec.testing.HttpHeads;
import io.hexstream.codec.testing.Measurements;
import io.hexstream.codec.testing.Poll;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A real loopback server streaming a 128-blob getBlobsV2 body to clients that stall or leave. */
class StreamingSocketTest {
    private static final int CHUNK = 256 * 1024;
    private static final int HIGH_WATER_MARK = 128 * 1024;
    private static final List<Entry> ENTRIES = Collections.nCopies(128, BlobFixtures.randomEntry(new Random(0xB10B)));

    private EventLoopGroup group;
    private Channel server;
    /** Each accepted connection, and each body handed to the pipeline, in order. */
    private final BlockingQueue<Channel> connections = new LinkedBlockingQueue<>();

    private final BlockingQueue<JsonBody> bodies = new LinkedBlockingQueue<>();

    @BeforeEach
    void startServer() throws InterruptedException {
        group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        server = new ServerBootstrap()
                .group(group)
                .channel(NioServerSocketChannel.class)
                .childOption(
                        ChannelOption.WRITE_BUFFER_WATER_MARK,
                        new WriteBufferWaterMark(HIGH_WATER_MARK / 2, HIGH_WATER_MARK))
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        connections.add(ch);
                        ch.pipeline()
                                .addLast(
                                        new HttpServerCodec(),
                                        new HttpObjectAggregator(1024),
                                        new StreamedResponseEncoder(CHUNK),
                                        new SimpleChannelInboundHandler<FullHttpRequest>() {
                                            @Override
                                            protected void channelRead0(
                                                    ChannelHandlerContext ctx, FullHttpRequest request) {
                                                JsonBody body = BlobFixtures.body(1L, ENTRIES);
                                                bodies.add(body);
                                                ctx.writeAndFlush(
                                                        StreamedResponse.of(request, HttpResponseStatus.OK, body));
                                            }

                                            @Override
                                            public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                                                // A client leaving mid-stream (these tests' own doing): its write
                                                // fails with "Broken pipe"; closing is all there is to do.
                                                ctx.close();
                                            }
                                        });
                    }
                })
                .bind("127.0.0.1", 0)
                .sync()
                .channel();
    }

    @AfterEach
    void stopServer() throws InterruptedException {
        server.close().sync();
        group.shutdownGracefully(0, 5, TimeUnit.SECONDS).sync();
    }

    private Socket request() throws IOException {
        Socket socket = new Socket();
        socket.setReceiveBufferSize(64 * 1024);
        socket.connect(server.localAddress());
        socket.getOutputStream().write("POST / HTTP/1.1\r\nHost: test\r\nContent-Length: 0\r\n\r\n".getBytes(US_ASCII));
        return socket;
    }

    private static long pendingOnEventLoop(Channel channel) throws Exception {
        return channel.eventLoop()
                .submit(() -> {
                    var outbound = channel.unsafe().outboundBuffer();
                    return outbound == null ? 0 : outbound.totalPendingWriteBytes();
                })
                .get();
    }

    @Test
    void aStalledReaderHoldsAtMostTheHighWaterMarkPlusTwoChunks() throws Exception {
        try (Socket client = request()) {
            client.getInputStream().readNBytes(64 * 1024);
            Channel connection = connections.take();
            JsonBody body = bodies.take();
            long peak = 0;
            for (int sample = 0; sample < 150; sample++) {
                peak = Math.max(peak, pendingOnEventLoop(connection));
                Thread.sleep(10); // a slow peer, stalled for 1.5 s: sampled every 10 ms
            }
            Measurements.report("stalled reader: peak outstanding " + peak + " bytes (high water mark "
                    + HIGH_WATER_MARK + ", chunk " + CHUNK + ")");
            assertTrue(peak <= HIGH_WATER_MARK + 2L * CHUNK, "peak outstanding " + peak);
            assertTrue(peak > 0, "the stalled reader left chunks waiting");
            assertFalse(connection.isWritable());
            assertEquals(1, body.refCnt(), "still streaming, nowhere near the end of 35 MB");
        }
    }

    @Test
    void aClientLeavingMidStreamFreesEverythingAndTheServerServesTheNext() throws Exception {
        try (Socket leaving = request()) {
            leaving.getInputStream().readNBytes(1024 * 1024);
        }
        JsonBody abandoned = bodies.take();
        Channel first = connections.take();
        assertTrue(first.closeFuture().await(5, TimeUnit.SECONDS), "the server saw the client leave");
        Poll.within(() -> abandoned.refCnt() == 0, Duration.ofSeconds(5));
        assertEquals(0, abandoned.refCnt(), "the abandoned body was released");

        byte[] expected = BlobFixtures.jackson(1L, ENTRIES);
        try (Socket next = request()) {
            InputStream in = next.getInputStream();
            String head = HttpHeads.read(in);
            assertTrue(head.startsWith("HTTP/1.1 200 OK\r\n"), head);
            assertTrue(head.contains("\r\ncontent-length: " + expected.length + "\r\n"), head);
            assertArrayEquals(expected, in.readNBytes(expected.length));
        }
    }
}
