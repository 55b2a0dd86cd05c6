package io.hexstream.server.http;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpServerUpgradeHandler;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.stream.ChunkedWriteHandler;
import io.netty.util.AsciiString;
import java.util.Collection;
import java.util.function.Supplier;

/**
 * HTTP/1.1's {@code Upgrade: h2c} (RFC 7540 3.2; deprecated by RFC 9113 3.1, but what the JDK's {@code HttpClient}
 * sends), taken on a connection's first request only, behind {@link RequestHeadCheck}: the request has passed its
 * route's checks and the JWT before a byte of its body is held, and is then held whole, up to
 * {@code --max-request-bytes} (its route's own limit is checked again on the stream). The {@code 101} is written, the
 * HTTP/1.1 handlers give way to HTTP/2's, and the request is served as stream 1. An {@code Upgrade: h2c} on a later
 * request, after others that may still be answered, is ignored (RFC 9110 7.8 lets a server), and the request served as
 * HTTP/1.1.
 */
final class H2cUpgrade extends HttpServerUpgradeHandler {
    private int requests;

    /**
     * @param http2 a new connection's HTTP/2 handlers, as the upgrade codec adding them
     * @param maxContentLength the largest upgrade request body held, in bytes
     */
    H2cUpgrade(HttpServerCodec source, Supplier<UpgradeCodec> http2, int maxContentLength) {
        super(
                source,
                protocol -> AsciiString.contentEquals(Http2CodecUtil.HTTP_UPGRADE_PROTOCOL_NAME, protocol)
                        ? new Http1Leaving(http2.get())
                        : null,
                maxContentLength);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (msg instanceof HttpRequest) {
            requests++;
        }
        super.channelRead(ctx, msg);
    }

    @Override
    protected boolean shouldHandleUpgradeRequest(HttpRequest request) {
        if (requests != 1) {
            return false;
        }
        for (String protocol :
                request.headers().get(HttpHeaderNames.UPGRADE, "").split(",", -1)) {
            if (AsciiString.contentEqualsIgnoreCase(Http2CodecUtil.HTTP_UPGRADE_PROTOCOL_NAME, protocol.trim())) {
                return true;
            }
        }
        return false; // another protocol's upgrade (a WebSocket's) goes on to its route unheld
    }

    /** The HTTP/2 upgrade codec, which first takes the HTTP/1.1 handlers out of the pipeline. */
    private static final class Http1Leaving implements UpgradeCodec {
        private final UpgradeCodec http2;

        Http1Leaving(UpgradeCodec http2) {
            this.http2 = http2;
        }

        @Override
        public Collection<CharSequence> requiredUpgradeHeaders() {
            return http2.requiredUpgradeHeaders();
        }

        @Override
        public boolean prepareUpgradeResponse(
                ChannelHandlerContext ctx, FullHttpRequest upgradeRequest, HttpHeaders upgradeHeaders) {
            return http2.prepareUpgradeResponse(ctx, upgradeRequest, upgradeHeaders);
        }

        @Override
        public void upgradeTo(ChannelHandlerContext ctx, FullHttpRequest upgradeRequest) {
            // The HTTP codec is gone already and the upgrade handler goes next; the socket-side handlers stay, the
            // lingering close with them (HTTP/2's closes linger too, Http2ConnectionWatch).
            ChannelPipeline pipeline = ctx.pipeline();
            EngineApiInitializer.removeRequestHandlers(pipeline);
            pipeline.remove(ChunkedWriteHandler.class);
            pipeline.remove(ProtocolSwitch.class);
            http2.upgradeTo(ctx, upgradeRequest);
        }
    }
}
