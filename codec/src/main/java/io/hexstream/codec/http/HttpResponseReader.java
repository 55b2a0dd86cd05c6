package io.hexstream.codec.http;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpStatusClass;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import java.util.function.Consumer;

/**
 * The client's side of HTTP/1.1, after an {@code HttpClientCodec}: sends each {@link HttpExchange} written to the
 * channel and hands its response's head and each body piece, as it arrives, to the exchange's
 * {@link HttpResponseConsumer}; no body is aggregated. Requests may be pipelined on a kept-alive connection: responses
 * are matched to them in order (RFC 9112, section 9.3.2); interim (1xx) responses are skipped.
 *
 * <pre>
 * pipeline.addLast(new HttpClientCodec(), new HttpResponseReader(false));
 * channel.writeAndFlush(new HttpExchange(request, consumer));
 * </pre>
 *
 * <p>A consumer that throws fails its exchange; the rest of that body is dropped and the connection stays usable for
 * the next response. A response that cannot be decoded as HTTP, an exception in the pipeline, a failed write or the
 * connection's end fail the exchange being read and every one waiting, and close the connection. Paced reading
 * ({@link #pause()}, {@link #resume()}) is {@link PipelinedReader}'s.
 *
 * <p>Ownership: every message read is released here, on every path; the request is handed on to the channel.
 */
public class HttpResponseReader extends PipelinedReader<HttpResponseConsumer> {

    /** A handler reading as fast as the socket delivers ({@code paced = false}) or as the consumer asks. */
    public HttpResponseReader(boolean paced) {
        super(paced);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (msg instanceof HttpExchange exchange) {
            send(ctx, exchange.consumer(), exchange.request(), promise);
        } else {
            ctx.write(msg, promise);
        }
    }

    @Override
    public final void channelRead(ChannelHandlerContext ctx, Object msg) {
        try {
            if (msg instanceof HttpResponse head) {
                if (head.decoderResult().isFailure()) {
                    failAll(head.decoderResult().cause());
                    ctx.close();
                    return;
                }
                if (head.status().codeClass() == HttpStatusClass.INFORMATIONAL) {
                    return;
                }
                if (next() == null) {
                    ctx.close();
                    return;
                }
                step(consumer -> consumer.head(head));
            }
            if (msg instanceof HttpContent content) {
                if (content.decoderResult().isFailure()) {
                    failAll(content.decoderResult().cause());
                    ctx.close();
                    return;
                }
                step(consumer -> consumer.content(content.content()));
                HttpResponseConsumer ended = content instanceof LastHttpContent ? current() : null;
                if (ended != null) {
                    done();
                    run(ended, HttpResponseConsumer::complete);
                }
            }
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }

    /** Runs {@code step} of the current exchange, if any; a fault fails it and drops the rest of its body. */
    private void step(Consumer<HttpResponseConsumer> step) {
        HttpResponseConsumer consumer = current();
        if (consumer != null && !run(consumer, step)) {
            done();
        }
    }

    /** Runs {@code step} of {@code consumer}; false, and the consumer told, if it threw. */
    private static boolean run(HttpResponseConsumer consumer, Consumer<HttpResponseConsumer> step) {
        try {
            step.accept(consumer);
            return true;
        } catch (RuntimeException e) {
            consumer.failed(e);
            return false;
        }
    }

    @Override
    protected final void failed(HttpResponseConsumer consumer, Throwable cause) {
        consumer.failed(cause);
    }
}
