package io.hexstream.server.rpc;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/** The JSON-RPC {@code error} object of a failed reply, {@code {"code":…,"message":"…"}}, rendered by Jackson. */
public final class ErrorJson {
    private static final JsonFactory FACTORY = new JsonFactory();

    private ErrorJson() {}

    public static byte[] of(RpcReply reply) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(64);
        try (JsonGenerator json = FACTORY.createGenerator(out)) {
            json.writeStartObject();
            json.writeNumberField("code", reply.error().code());
            json.writeStringField("message", reply.errorMessage());
            json.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}
