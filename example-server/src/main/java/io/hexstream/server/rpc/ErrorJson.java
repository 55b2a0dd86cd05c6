package io.hexstream.server.rpc;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The JSON-RPC {@code error} object of a failed reply, {@code {"code":…,"message":"…"}}, rendered by
 * Jackson; {@code -32000} also carries {@code "data":{"err":"…"}} with the detail (execution-apis
 * {@code common.md}, "Errors").
 */
public final class ErrorJson {
    private static final JsonFactory FACTORY = new JsonFactory();

    private ErrorJson() {}

    public static byte[] of(RpcReply reply) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(64);
        try (JsonGenerator json = FACTORY.createGenerator(out)) {
            json.writeStartObject();
            json.writeNumberField("code", reply.error().code());
            json.writeStringField("message", reply.errorMessage());
            if (reply.error() == RpcError.SERVER_ERROR) {
                json.writeObjectFieldStart("data");
                json.writeStringField("err", reply.detail() != null ? reply.detail() : reply.error().message());
                json.writeEndObject();
            }
            json.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}
