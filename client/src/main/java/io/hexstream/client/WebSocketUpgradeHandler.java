package io.hexstream.client;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.websocketx.WebSocketClientHandshaker13;
import io.netty.handler.codec.http.websocketx.WebSocketClientProtocolHandler.ClientHandshakeStateEvent;
import io.netty.handler.codec.http.websocketx.WebSocketFrameDecoder;
import io.netty.handler.codec.http.websocketx.WebSocketHandshakeException;
import io.netty.handler.codec.http.websocketx.WebSocketVersion;
import java.net.URI;

/**
 * The client's WebSocket opening handshake (RFC 6455, section 4.1) by Netty's {@link WebSocketClientHandshaker13},
 * after an {@code HttpClientCodec} and an {@code HttpObjectAggregator} bounding the server's answer: the upgrade sent
 * once the connection is up, the answer checked, and Netty's frame decoder, which holds each frame whole, replaced by a
 * {@link WebSocketFrameReader}; then {@link ClientHandshakeStateEvent#HANDSHAKE_COMPLETE} is fired and this handler
 * leaves the pipeline. A refused upgrade (a status other than 101) is fired as a {@link BadResponseException} of one
 * line with the server's reason ({@link RefusedResponse}): {@code HTTP 401 Unauthorized to the WebSocket upgrade: wrong
 * signature: …}; another fault of the answer as the handshaker's {@link WebSocketHandshakeException}. Ownership: the
 * answer is released here.
 */
final class WebSocketUpgradeHandler extends ChannelInboundHandlerAdapter {
    private final WebSocketClientHandshaker13 handshaker;

    /** An upgrade to {@code target} (its path and query are the request's), with {@code headers} sent too. */
    WebSocketUpgradeHandler(URI target, HttpHeaders headers) {
        this.handshaker = new WebSocketClientHandshaker13(target, WebSocketVersion.V13, null, false, headers, 0) {
            @Override
            protected WebSocketFrameDecoder newWebsocketDecoder() {
                return new WebSocketFrameReader();
            }
        };
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        handshaker.handshake(ctx.channel()).addListener(sent -> {
            if (!sent.isSuccess()) {
                ctx.fireExceptionCaught(sent.cause());
            }
        });
        ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof FullHttpResponse response)) {
            ctx.fireChannelRead(msg);
            return;
        }
        try {
            handshaker.finishHandshake(ctx.channel(), response);
        } catch (WebSocketHandshakeException e) {
            ctx.fireExceptionCaught(refusal(response, e));
            return;
        } finally {
            response.release();
        }
        ctx.fireUserEventTriggered(ClientHandshakeStateEvent.HANDSHAKE_COMPLETE);
        ctx.pipeline().remove(this);
    }

    /** What {@code response}, which the handshaker refused with {@code e}, is: a refusal, or {@code e}. */
    private static Exception refusal(FullHttpResponse response, WebSocketHandshakeException e) {
        if (response.status().code() == HttpResponseStatus.SWITCHING_PROTOCOLS.code()) {
            return e;
        }
        RefusedResponse refused = new RefusedResponse(response);
        refused.add(response.content());
        BadResponseException refusal = new BadResponseException(refused.line(" to the WebSocket upgrade"));
        refusal.initCause(e);
        return refusal;
    }
}
