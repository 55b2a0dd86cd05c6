package io.hexstream.jmh.e2e;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hexstream.jmh.BesuBlobsJson;
import io.hexstream.server.engine.BlobAndProofV2;
import io.hexstream.server.engine.BlobsResult;
import io.hexstream.server.http.Responder;
import io.hexstream.server.rpc.Replies;
import io.hexstream.server.rpc.ResponseRenderer;
import io.hexstream.server.rpc.RpcReply;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The {@code besuWholeBody} server: Besu main's result values and writer ({@link BesuBlobsJson}: a
 * {@code BlobAndProofV2} per pooled blob, each blob and proof a {@code String} by tuweni's {@code toFastHex} as Jackson
 * writes it), but serialised into one byte array and written whole. Heavier than Besu, which streams
 * ({@link BesuLikeServer} is the peer the ratios are taken against); kept, off by default, to show what streaming
 * saves. Single V2 replies only.
 */
final class BesuWholeBodyRenderer implements ResponseRenderer {
    private final ObjectMapper mapper = BesuBlobsJson.mapper();
    private final BesuPoolValues pool = new BesuPoolValues();

    @Override
    public void render(Replies replies, Responder responder) {
        FullHttpResponse response = render(responder.version(), responder.keepAlive(), replies);
        responder.respond(response, response.content().readableBytes(), replies.summary());
    }

    private FullHttpResponse render(HttpVersion version, boolean keepAlive, Replies replies) {
        RpcReply reply = replies.replies().get(0);
        replies.release(); // the reply as the server built it, to count the response cap: not what is sent here
        if (replies.batch()
                || replies.replies().size() != 1
                || !(reply.result() instanceof BlobsResult v2)
                || v2.shape() != BlobAndProofV2.SHAPE) {
            throw new IllegalArgumentException("the baseline renders one getBlobsV2 result");
        }
        List<BesuBlobsJson.BlobAndProofV2> result = v2.entries() == null ? null : pool.blobsAndProofs(v2.entries());
        try {
            byte[] json = mapper.writeValueAsBytes(
                    new BesuBlobsJson.Response("2.0", new String(reply.id(), StandardCharsets.UTF_8), result));
            return fullResponse(version, keepAlive, json);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    static FullHttpResponse fullResponse(HttpVersion version, boolean keepAlive, byte[] json) {
        FullHttpResponse response =
                new DefaultFullHttpResponse(version, HttpResponseStatus.OK, Unpooled.wrappedBuffer(json));
        return withHeaders(keepAlive, response);
    }

    static FullHttpResponse withHeaders(boolean keepAlive, FullHttpResponse response) {
        return withHeaders(keepAlive, response, response.content().readableBytes());
    }

    /** {@code response}'s headers for a JSON body of {@code length} bytes (the head of a streamed body too). */
    static <R extends HttpResponse> R withHeaders(boolean keepAlive, R response, long length) {
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_JSON);
        HttpUtil.setContentLength(response, length);
        HttpUtil.setKeepAlive(response, keepAlive);
        return response;
    }
}
