package io.hexstream.client;

import io.hexstream.codec.http.HttpExchange;
import io.hexstream.codec.http.HttpResponseReader;
import io.netty.channel.Channel;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2GoAwayFrame;
import io.netty.handler.codec.http2.Http2MultiplexHandler;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.handler.codec.http2.Http2SettingsFrame;
import io.netty.handler.codec.http2.Http2StreamChannel;
import io.netty.handler.codec.http2.Http2StreamChannelBootstrap;
import io.netty.handler.codec.http2.Http2StreamFrameToHttpObjectCodec;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.Future;
import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The client's side of one h2c connection with prior knowledge (RFC 9113, section 3.3; execution-apis #793, "Transport
 * &amp; framing"), after Netty's {@code Http2FrameCodec} and {@code Http2MultiplexHandler}: each {@link StreamExchange}
 * written to the connection gets a stream of its own, whose pipeline turns the stream's frames into HTTP objects
 * ({@link Http2StreamFrameToHttpObjectCodec}, the DATA frames' buffers handed on, not copied) for the same
 * {@link HttpResponseReader} and response consumers HTTP/1.1 uses. At most {@code min(maxStreams, the server's
 * MAX_CONCURRENT_STREAMS)} streams are open at once; further exchanges wait, in order, for one to close. No stream is
 * opened before the server's first {@code SETTINGS} ({@link #ready()}), nor after its {@code GOAWAY}
 * ({@link #goingAway()}: the exchanges still waiting fail, the streams open go on).
 *
 * <p>Settings sent ({@link #initializer}): {@code INITIAL_WINDOW_SIZE} {@value GetBlobsClient#HTTP2_WINDOW_SIZE} (the
 * codec opens the connection's window to at least as much with a {@code WINDOW_UPDATE} on stream 0),
 * {@code MAX_HEADER_LIST_SIZE} {@value GetBlobsClient#MAX_HEADER_LIST_SIZE} (as HTTP/1.1's header limit),
 * {@code ENABLE_PUSH} 0; {@code MAX_FRAME_SIZE} at its default. A stream's window is handed back as its reader takes
 * its frames, so a paced stream that is {@link #pause()}d holds at most its window; if the connection ends meanwhile,
 * the stream is closed here (its call fails, its frames are released), as it would otherwise hear of it only once
 * resumed.
 *
 * <p>Ownership: a waiting exchange's request is released here if its connection ends first; once its stream is open it
 * is the stream's, as on HTTP/1.1. Frames of the connection (SETTINGS, PING, GOAWAY) are released here. Runs on the
 * connection's event loop; {@link #pause()} and {@link #resume()} from any thread.
 */
final class Http2StreamsHandler extends ChannelDuplexHandler {

    /**
     * An exchange for a stream of its own, and the counter of its response's body bytes (put in its stream's pipeline).
     *
     * @param exchange the request and the consumer of its response
     * @param bodyCounter counts the body bytes of that response
     */
    record StreamExchange(HttpExchange exchange, BodyCounter bodyCounter) {}

    private final ArrayDeque<StreamExchange> waiting = new ArrayDeque<>();
    /** The streams open and their readers. */
    private final Map<Http2StreamChannel, HttpResponseReader> open = new HashMap<>();

    private final CompletableFuture<Void> ready = new CompletableFuture<>();
    private final int maxStreams;
    private final boolean paced;
    private ChannelHandlerContext ctx;
    /** The server's {@code MAX_CONCURRENT_STREAMS}; unbounded until it says. */
    private long serverMaxStreams = Long.MAX_VALUE;
    /** Streams opened and not yet closed. */
    private int streams;

    private boolean paused;
    /** Whether the server has sent {@code GOAWAY}: no new stream may go on this connection. */
    private volatile boolean goingAway;

    private Http2StreamsHandler(int maxStreams, boolean paced) {
        this.maxStreams = maxStreams;
        this.paced = paced;
    }

    /**
     * The pipeline of a new connection: the frame codec with the settings above, the multiplexer (refusing streams the
     * server would open) and a handler of at most {@code maxStreams} streams, each read paced or not.
     */
    static ChannelInitializer<Channel> initializer(int maxStreams, boolean paced) {
        return new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
                Http2Settings settings = new Http2Settings()
                        .initialWindowSize(GetBlobsClient.HTTP2_WINDOW_SIZE)
                        .maxHeaderListSize(GetBlobsClient.MAX_HEADER_LIST_SIZE)
                        .pushEnabled(false);
                ch.pipeline()
                        .addLast(
                                Http2FrameCodecBuilder.forClient()
                                        .initialSettings(settings)
                                        .build(),
                                new Http2MultiplexHandler(PushRefused.INSTANCE),
                                new Http2StreamsHandler(maxStreams, paced));
            }
        };
    }

    /** Completes once the server's first {@code SETTINGS} has been read; fails if the connection ends first. */
    CompletableFuture<Void> ready() {
        return ready;
    }

    /**
     * Whether the server has sent {@code GOAWAY} (RFC 9113, section 6.8): the streams it named go on, and new calls
     * belong on a new connection.
     */
    boolean goingAway() {
        return goingAway;
    }

    /** Stops the reading of every stream open, and of those opened until {@link #resume()} (paced handlers only). */
    void pause() {
        onLoop(() -> {
            paused = true;
            List.copyOf(open.values()).forEach(HttpResponseReader::pause);
        });
    }

    /** Reads every stream again after {@link #pause()} (paced handlers only). */
    void resume() {
        onLoop(() -> {
            paused = false;
            // A copy: a stream resumed may end, and leave the set, at once.
            List.copyOf(open.values()).forEach(HttpResponseReader::resume);
        });
    }

    private void onLoop(Runnable task) {
        if (!paced) {
            throw new IllegalStateException("only a paced client is paused and resumed");
        }
        if (ctx.executor().inEventLoop()) {
            task.run();
        } else {
            ctx.executor().execute(task);
        }
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (msg instanceof StreamExchange exchange) {
            waiting.add(exchange);
            promise.trySuccess(); // its outcome is its consumer's
            if (goingAway) { // sent as the GOAWAY was read
                failWaiting(new IOException("the server is going away (GOAWAY): no new stream on this connection"));
            }
            openStreams();
        } else {
            ctx.write(msg, promise);
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        try {
            if (msg instanceof Http2SettingsFrame frame) {
                Long max = frame.settings().maxConcurrentStreams();
                if (max != null) {
                    serverMaxStreams = max;
                }
                ready.complete(null);
                openStreams();
            } else if (msg instanceof Http2GoAwayFrame frame) {
                goingAway = true;
                // Streams the server will not answer; a paused one would hear of it only when it reads again.
                List.copyOf(open.keySet()).stream()
                        .filter(stream -> stream.stream().id() > frame.lastStreamId())
                        .forEach(Http2StreamChannel::close);
                failWaiting(new IOException("the server is going away (GOAWAY "
                        + StreamResetHandler.errorName(frame.errorCode()) + ") before this request's stream opened"));
            }
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }

    /** Opens a stream for each waiting exchange, in order, while the bounds allow. */
    private void openStreams() {
        while (ready.isDone() && !goingAway && !waiting.isEmpty() && streams < Math.min(maxStreams, serverMaxStreams)) {
            StreamExchange next = waiting.poll();
            streams++;
            new Http2StreamChannelBootstrap(ctx.channel())
                    .handler(new ChannelInitializer<Http2StreamChannel>() {
                        @Override
                        protected void initChannel(Http2StreamChannel stream) {
                            stream.pipeline()
                                    .addLast(
                                            StreamResetHandler.INSTANCE,
                                            new Http2StreamFrameToHttpObjectCodec(false),
                                            next.bodyCounter(),
                                            new HttpResponseReader(paced));
                        }
                    })
                    .open()
                    .addListener(opened -> opened(opened, next.exchange()));
        }
    }

    /** The stream of {@code exchange} is open, or could not be: its request is sent, or its consumer fails. */
    private void opened(Future<?> opened, HttpExchange exchange) {
        if (!opened.isSuccess()) {
            streams--;
            fail(exchange, opened.cause());
            openStreams();
            return;
        }
        Http2StreamChannel stream = (Http2StreamChannel) opened.getNow();
        HttpResponseReader reader = stream.pipeline().get(HttpResponseReader.class);
        if (paced && paused) {
            reader.pause();
        }
        open.put(stream, reader);
        stream.closeFuture().addListener(closed -> {
            open.remove(stream);
            streams--;
            openStreams();
        });
        stream.writeAndFlush(exchange);
    }

    private static void fail(HttpExchange exchange, Throwable cause) {
        exchange.request().release();
        exchange.consumer().failed(cause);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        ClosedChannelException closed = new ClosedChannelException();
        ready.completeExceptionally(closed);
        failWaiting(closed);
        // A paused stream hears of its end only when it reads again: closed here, it fails its call and releases the
        // frames it holds.
        List.copyOf(open.keySet()).forEach(Http2StreamChannel::close);
        ctx.fireChannelInactive();
    }

    private void failWaiting(Throwable cause) {
        for (StreamExchange exchange; (exchange = waiting.poll()) != null; ) {
            fail(exchange.exchange(), cause);
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ready.completeExceptionally(cause);
        ctx.close();
    }

    /** The handler of a stream the server would open (a push, refused by {@code ENABLE_PUSH} 0): closes it. */
    @Sharable
    private static final class PushRefused extends ChannelInboundHandlerAdapter {
        static final PushRefused INSTANCE = new PushRefused();

        @Override
        public void handlerAdded(ChannelHandlerContext ctx) {
            ctx.close();
        }
    }
}
