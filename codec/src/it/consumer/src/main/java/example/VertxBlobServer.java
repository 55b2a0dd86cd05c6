package example;

import io.hexstream.codec.json.JsonBody;
import io.hexstream.codec.vertx.VertxJsonBodyWriter;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import java.util.List;

/** A Vert.x server answering every request with one blob and its proofs. */
public final class VertxBlobServer {
    private VertxBlobServer() {}

    public static Future<HttpServer> start(Vertx vertx, int port, byte[] blob, List<byte[]> proofs) {
        return vertx.createHttpServer()
                .requestHandler(
                        request -> { // a Future<HttpServer>
                            JsonBody body = JsonBody.builder()
                                    .beginObject()
                                    .name("jsonrpc")
                                    .string("2.0")
                                    .name("id")
                                    .raw("1")
                                    .name("result")
                                    .beginObject()
                                    .name("blob")
                                    .hex(blob)
                                    .name("proofs")
                                    .hexArray(proofs)
                                    .endObject()
                                    .endObject()
                                    .build();
                            VertxJsonBodyWriter.write(
                                    request.response(), body); // exact Content-Length, chunks released
                        })
                .listen(port, "127.0.0.1");
    }
}
