package example;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import io.hexstream.codec.jackson.HexModule;
import io.hexstream.codec.vertx.VertxResponseOutputStream;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerResponse;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import org.apache.tuweni.bytes.Bytes;
import org.apache.tuweni.bytes.Bytes48;

/** Besu's engine port with the change of "In Besu": Jackson and HexModule into pooled Vert.x chunks, on a worker. */
public final class BesuEngineServer {
    /** Besu's writer (JsonRpcObjectExecutor), with HexModule registered on its mapper. */
    private static final ObjectWriter WRITER = new ObjectMapper()
            .registerModule(new HexModule())
            .writer()
            .without(JsonGenerator.Feature.FLUSH_PASSED_TO_STREAM)
            .with(JsonGenerator.Feature.AUTO_CLOSE_TARGET);

    /** Besu's BlobAndProofV2 with Bytes fields instead of hex Strings. */
    public record BlobAndProofV2(Bytes blob, List<Bytes48> proofs) {}

    /** A JSON-RPC success response. */
    public record Response(String jsonrpc, int id, List<BlobAndProofV2> result) {}

    private BesuEngineServer() {}

    public static Future<HttpServer> start(Vertx vertx, int port, List<BlobAndProofV2> result) {
        return vertx.createHttpServer()
                .requestHandler(request -> vertx.executeBlocking( // a worker, as Besu's blockingHandler
                        () -> {
                            respond(request.response(), new Response("2.0", 1, result));
                            return null;
                        },
                        false))
                .listen(port, "127.0.0.1");
    }

    /** As JsonRpcObjectExecutor writes a reply; the stream stands where it constructs a JsonResponseStreamer. */
    static void respond(HttpServerResponse response, Response reply) throws IOException {
        response.putHeader("Content-Type", "application/json").setStatusCode(200);
        try (OutputStream out = new VertxResponseOutputStream(response)) { // chunked, pooled direct chunks
            WRITER.writeValue(out, reply); // no hex String made; each chunk released once written
        }
    }
}
