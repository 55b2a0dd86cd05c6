package io.hexstream.jmh.e2e;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hexstream.client.BlobSizes;
import io.hexstream.jmh.JacksonStrings;
import io.hexstream.server.blob.BlobEntry;
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
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code jacksonStringsWholeBody} server: blobs and proofs made Strings by the {@code char[]} method as Besu's
 * {@code EngineGetBlobsV2.java} does, but serialised by Jackson into one byte array and written whole. Heavier than
 * Besu, which streams ({@link BesuLikeServer} is the peer the ratios are taken against); kept, off by default, to show
 * what streaming saves. Single V2 replies only.
 */
final class JacksonStringsRenderer implements ResponseRenderer {
    private final ObjectMapper mapper = new ObjectMapper();

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
        List<JacksonStrings.BlobAndProofV2> result = null;
        if (v2.entries() != null) {
            result = new ArrayList<>(v2.entries().size());
            for (BlobEntry entry : v2.entries()) {
                result.add(
                        entry == null
                                ? null
                                : JacksonStrings.blobAndProof(
                                        entry.blob(),
                                        entry.cellProofs(),
                                        BlobSizes.PROOF_SIZE,
                                        BlobSizes.CELLS_PER_EXT_BLOB));
            }
        }
        try {
            return mapper.writeValueAsBytes(
                    new JacksonStrings.Response("2.0", new String(reply.id(), StandardCharsets.UTF_8), result));
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
