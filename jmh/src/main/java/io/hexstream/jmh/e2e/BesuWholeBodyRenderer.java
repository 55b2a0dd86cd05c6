package io.hexstream.jmh.e2e;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hexstream.jmh.BesuBlobsJson;
import io.hexstream.server.engine.BlobAndProofV2;
import io.hexstream.server.engine.BlobsResult;
import io.hexstream.server.exchange.ReplySink;
import io.hexstream.server.metrics.ResponseSummary;
import io.hexstream.server.rpc.Replies;
import io.hexstream.server.rpc.ResponseRenderer;
import io.hexstream.server.rpc.RpcReply;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
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
    public void render(Replies replies, ReplySink sink) {
        ResponseSummary summary = replies.summary();
        sink.respond(
                HttpResponseStatus.OK,
                HttpHeaderValues.APPLICATION_JSON,
                Unpooled.wrappedBuffer(render(replies)),
                summary);
    }

    /** The one reply's JSON; takes the replies over. */
    private byte[] render(Replies replies) {
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
            return mapper.writeValueAsBytes(
                    new BesuBlobsJson.Response("2.0", new String(reply.id(), StandardCharsets.UTF_8), result));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** {@code response}'s headers for a JSON body of {@code length} bytes (the head of a streamed body too). */
    static <R extends HttpResponse> R withHeaders(boolean keepAlive, R response, long length) {
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_JSON);
        HttpUtil.setContentLength(response, length);
        HttpUtil.setKeepAlive(response, keepAlive);
        return response;
    }
}
