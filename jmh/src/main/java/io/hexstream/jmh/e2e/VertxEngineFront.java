package io.hexstream.jmh.e2e;

import io.hexstream.client.VersionedHash;
import io.hexstream.server.blob.BlobEntry;
import io.hexstream.server.pool.DurableBlobPool;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Arrays;
import java.util.List;

/**
 * The front both Vert.x servers of {@link VertxEndToEndBenchmark} share, modelled on Besu's Engine API route
 * ({@code ethereum/api/src/main/java/org/hyperledger/besu/ethereum/api/jsonrpc/EngineJsonRpcService.java}): the whole
 * request body read ({@code BodyHandler}), parsed into a Vert.x {@link JsonObject}
 * ({@code .../api/handlers/JsonRpcParserHandler.java}: {@code ctx.body().asJsonObject()}), then the method run on a
 * worker thread, as the route's {@code blockingHandler(…, false)} runs
 * {@code .../api/handlers/JsonRpcExecutorHandler.java} and {@code .../api/handlers/JsonRpcObjectExecutor.java}
 * ({@code executeBlocking}, unordered): the versioned hashes decoded, the blobs looked up in the pool ({@code null} for
 * all if one is missing, as getBlobsV2 answers), and the reply handed to the server's {@link Responder} on that worker.
 * Lighter than Besu: no JWT check (neither server checks one), no vertx-web router and its other handlers, no mapping
 * of the request to a POJO, and no second worker hop
 * ({@code .../api/jsonrpc/internal/methods/ExecutionEngineJsonRpcMethod.java} runs the method in a nested
 * {@code executeBlocking} on a Vert.x of one worker, {@code app/src/main/java/org/hyperledger/besu/RunnerBuilder.java},
 * while the first worker waits). NIO for both servers (Besu prefers epoll when its native library is on the class
 * path). Single {@code engine_getBlobsV2} requests only; anything else closes the connection.
 */
final class VertxEngineFront implements Handler<HttpServerRequest> {
    /** Writes the reply to one getBlobsV2 request, from a Vert.x worker thread. */
    interface Responder {
        /**
         * Writes the response to {@code response}, ending it.
         *
         * @param id the request's {@code id} as a JSON token
         * @param entries the blobs asked for, in order, or {@code null} if one is missing
         */
        void respond(HttpServerResponse response, String id, List<BlobEntry> entries) throws Exception;
    }

    private final Vertx vertx;
    private final DurableBlobPool pool;
    private final Responder responder;

    VertxEngineFront(Vertx vertx, DurableBlobPool pool, Responder responder) {
        this.vertx = vertx;
        this.pool = pool;
        this.responder = responder;
    }

    @Override
    public void handle(HttpServerRequest request) {
        request.body()
                .onSuccess(body -> vertx.executeBlocking(
                                () -> {
                                    respond(request, body);
                                    return null;
                                },
                                false)
                        .onFailure(failure -> request.connection().close()))
                .onFailure(failure -> request.connection().close());
    }

    /** On the worker: the method, then the reply. */
    private void respond(HttpServerRequest request, Buffer body) throws Exception {
        JsonObject json = body.toJsonObject();
        JsonArray params = json.getJsonArray("params").getJsonArray(0);
        VersionedHash[] hashes = new VersionedHash[params.size()];
        for (int i = 0; i < hashes.length; i++) {
            hashes[i] = VersionedHash.decode(params.getString(i));
        }
        BlobEntry[] entries = pool.getAll(hashes);
        boolean complete = Arrays.stream(entries).allMatch(entry -> entry != null && entry.cellProofs() != null);
        responder.respond(
                request.response(), Json.encode(json.getValue("id")), complete ? Arrays.asList(entries) : null);
    }
}
