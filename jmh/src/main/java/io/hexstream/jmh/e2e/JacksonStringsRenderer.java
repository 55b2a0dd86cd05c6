package io.hexstream.jmh.e2e;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hexstream.client.BlobSizes;
import io.hexstream.jmh.JacksonStrings;
import io.hexstream.server.blob.BlobEntry;
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
            byte[] json = mapper.writeValueAsBytes(
                    new JacksonStrings.Response("2.0", new String(reply.id(), StandardCharsets.UTF_8), result));
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
