package io.hexstream.server.http;

import io.hexstream.server.auth.Authenticator;
import io.hexstream.server.rpc.EngineApi;
import io.hexstream.server.rpc.RequestParser;
import io.hexstream.server.rpc.RpcException;
import io.hexstream.server.rpc.RpcReply;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Engine API over HTTP/1.1: POST only ({@code 405} otherwise), a valid JWT on every request
 * ({@code 401} otherwise; none needed with {@link Authenticator#NONE}), then JSON-RPC 2.0, single or
 * batch, answered in order with HTTP 200.
 * Stateless, so one instance serves every connection.
 */
@Sharable
public final class EngineApiHandler extends SimpleChannelInboundHandler<FullHttpRequest> {
    private static final Logger LOG = LoggerFactory.getLogger(EngineApiHandler.class);
    private static final byte[] NULL_ID = "null".getBytes(StandardCharsets.US_ASCII);

    private final Authenticator authenticator;
    private final RequestParser parser;
    private final EngineApi api;
    private final ResponseRenderer renderer;

    public EngineApiHandler(Authenticator authenticator, RequestParser parser, EngineApi api,
            ResponseRenderer renderer) {
        this.authenticator = authenticator;
        this.parser = parser;
        this.api = api;
        this.renderer = renderer;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
        if (!request.decoderResult().isSuccess()) {
            plain(ctx, request, HttpResponseStatus.BAD_REQUEST, false);
            return;
        }
        if (!HttpMethod.POST.equals(request.method())) {
            plain(ctx, request, HttpResponseStatus.METHOD_NOT_ALLOWED, HttpUtil.isKeepAlive(request));
            return;
        }
        String refusal = authenticator.refusal(request.headers().get(HttpHeaderNames.AUTHORIZATION));
        if (refusal != null) {
            LOG.debug("401 for {}: {}", ctx.channel().remoteAddress(), refusal);
            plain(ctx, request, HttpResponseStatus.UNAUTHORIZED, HttpUtil.isKeepAlive(request));
            return;
        }
        List<RpcReply> replies;
        boolean batch;
        try {
            RequestParser.Parsed parsed = parser.parse(request.content());
            replies = api.execute(parsed.requests());
            batch = parsed.batch();
        } catch (RpcException e) {
            replies = List.of(RpcReply.failure(NULL_ID, e.error(), e.getMessage()));
            batch = false;
        }
        if (replies.isEmpty()) {
            plain(ctx, request, HttpResponseStatus.OK, HttpUtil.isKeepAlive(request)); // notifications only
            return;
        }
        ctx.writeAndFlush(renderer.render(request, replies, batch));
    }

    /** A response without content, e.g. 401; the connection closes after it unless {@code keepAlive}. */
    private static void plain(ChannelHandlerContext ctx, FullHttpRequest request, HttpResponseStatus status,
            boolean keepAlive) {
        FullHttpResponse response = new DefaultFullHttpResponse(request.protocolVersion(), status);
        HttpUtil.setContentLength(response, 0);
        HttpUtil.setKeepAlive(response, keepAlive);
        if (status == HttpResponseStatus.METHOD_NOT_ALLOWED) {
            response.headers().set(HttpHeaderNames.ALLOW, HttpMethod.POST.name());
        }
        var written = ctx.writeAndFlush(response);
        if (!keepAlive) {
            written.addListener(ChannelFutureListener.CLOSE);
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        LOG.debug("closing {}: {}", ctx.channel().remoteAddress(), cause.toString());
        ctx.close();
    }
}
