package io.hexstream.server.http;

import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpStatusClass;
import io.netty.util.ReferenceCountUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Switches a connection to the protocol a route answered with ({@link SwitchingProtocols}), next to
 * {@link EngineApiHandler}, which writes exactly one message per request: when the switch's turn comes, its {@code 101}
 * is written, and once it is on the wire the HTTP handlers are replaced by the new protocol's before another byte is
 * decoded. A client must wait for the {@code 101} before it sends in the new protocol (RFC 6455 4.1): a request taken
 * after the one switching, or anything read while the switch is being written, closes the connection instead. One
 * instance per connection.
 */
final class ProtocolSwitch extends ChannelDuplexHandler {
    private static final Logger LOG = LoggerFactory.getLogger(ProtocolSwitch.class);

    /** Requests passed on to {@link EngineApiHandler}: whole ones and refused ones. */
    private long requests;
    /** Final responses written for them. */
    private long responses;

    private boolean switching;

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (switching) {
            ReferenceCountUtil.release(msg);
            LOG.debug(
                    "closing {}: sent on before the switch of protocols",
                    ctx.channel().remoteAddress());
            ctx.close();
            return;
        }
        if (msg instanceof FullHttpRequest || msg instanceof RefusedRequest) {
            requests++;
        }
        ctx.fireChannelRead(msg);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (!(msg instanceof HttpResponse interim && interim.status().codeClass() == HttpStatusClass.INFORMATIONAL)) {
            responses++; // a final response (a 100 Continue is not one)
        }
        if (!(msg instanceof SwitchingProtocols next)) {
            ctx.write(msg, promise);
            return;
        }
        if (responses != requests) {
            LOG.debug(
                    "closing {}: a request followed the switch of protocols",
                    ctx.channel().remoteAddress());
            promise.tryFailure(new IllegalStateException("a request followed the switch of protocols"));
            ctx.close();
            return;
        }
        switching = true;
        ChannelPromise wire = ctx.newPromise();
        ctx.write(next.response(), wire);
        wire.addListener(written -> {
            if (written.isSuccess()) {
                replaceHttp(ctx.pipeline(), next);
                promise.trySuccess();
            } else {
                promise.tryFailure(written.cause());
                ctx.close();
            }
        });
    }

    /** Puts the new protocol's handlers in place of the HTTP ones (this one included). */
    private void replaceHttp(ChannelPipeline pipeline, SwitchingProtocols next) {
        String at = pipeline.context(HttpServerCodec.class).name();
        for (ChannelHandler handler : next.codec()) {
            pipeline.addAfter(at, null, handler);
            at = pipeline.context(handler).name();
        }
        EngineApiInitializer.removeRequestHandlers(pipeline);
        if (pipeline.get(H2cUpgrade.class) != null) {
            pipeline.remove(H2cUpgrade.class);
        }
        pipeline.remove(this);
        for (ChannelHandler handler : next.handlers()) {
            pipeline.addLast(handler);
        }
        // The HTTP codec goes last: what it read past the request (nothing, from a client that waits for the 101)
        // goes on to the new codec, with every handler in place.
        pipeline.remove(HttpServerCodec.class);
    }
}
