package io.hexstream.server;

import io.hexstream.client.BlobSizes;
import io.hexstream.server.auth.Authenticator;
import io.hexstream.server.auth.JwtAuthenticator;
import io.hexstream.server.auth.JwtSecret;
import io.hexstream.server.cache.HexCache;
import io.hexstream.server.engine.BlobLookup;
import io.hexstream.server.engine.EngineMethods;
import io.hexstream.server.engine.Fork;
import io.hexstream.server.http.ConnectionLimit;
import io.hexstream.server.http.EngineApiInitializer;
import io.hexstream.server.http.EngineServer;
import io.hexstream.server.http.RefusalLog;
import io.hexstream.server.http.RouteTable;
import io.hexstream.server.ipc.IpcPipeline;
import io.hexstream.server.ipc.IpcServer;
import io.hexstream.server.metrics.Instrumentation;
import io.hexstream.server.metrics.MetricsEndpoint;
import io.hexstream.server.metrics.PrometheusMetrics;
import io.hexstream.server.metrics.ServerMetrics;
import io.hexstream.server.pool.DurableBlobPool;
import io.hexstream.server.rpc.ExecutorShare;
import io.hexstream.server.rpc.JsonRpcDispatcher;
import io.hexstream.server.rpc.JsonRpcRoute;
import io.hexstream.server.rpc.RequestParser;
import io.hexstream.server.rpc.ResponseRenderer;
import io.hexstream.server.rpc.ResponseWriter;
import io.hexstream.server.rpc.RpcMethod;
import io.hexstream.server.ssz.SszRoute;
import io.hexstream.server.tx.IngestWork;
import io.hexstream.server.tx.TransactionIngest;
import io.hexstream.server.ws.WebSocketRoute;
import io.netty.handler.codec.http.HttpMethod;
import java.io.IOException;
import java.time.Clock;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * The wiring: from the options and the parts the start-up steps made, the Engine API methods, the JSON-RPC dispatcher,
 * each port's route table and pipeline, and the ports bound.
 *
 * @param secret every JWT on the Engine API port is checked with it, at {@code clock}'s time
 * @param hexCache {@code null} when {@code --hex-cache-mib} is 0
 * @param ingest blocking work (KZG, fsync), bounded
 * @param largeRequests parses and dispatches large request bodies off the event loops
 * @param scrapes where {@code GET /metrics} is scraped, off the event loops ({@link MetricsRoute}); {@code null}
 *     without {@code --metrics-port}
 * @param ingestWork the ingest's costly steps (decoding, KZG), {@link IngestWork#STANDARD} but in tests
 */
record ServerWiring(
        ServerOptions config,
        JwtSecret secret,
        Clock clock,
        DurableBlobPool pool,
        HexCache hexCache,
        Instrumentation instrumentation,
        ThreadPoolExecutor ingest,
        ExecutorService largeRequests,
        ExecutorService scrapes,
        IngestWork ingestWork) {

    /**
     * Builds the methods and pipelines and binds the ports, in order: the Engine API's, the one without JWT, the
     * metrics one; serving from then on. Each has its own connection places: {@code --max-connections},
     * {@code --rpc-max-connections}, {@link MetricsRoute#MAX_CONNECTIONS}. The one without JWT serves only
     * {@link EngineMethods#unauthenticated its methods} (an {@code engine_} method is not found there), and its
     * blocking calls take at most half of the ingest queue ({@link ExecutorShare}): the other half stays the Engine API
     * port's.
     *
     * @param renderer makes the response renderer of the server's writer (the one that answers from the hex cache),
     *     e.g. {@code ResponseRenderer::streaming}
     * @throws StartupException a port that could not be bound ({@link StartupErrors#notBound})
     */
    ListeningPorts bind(Function<ResponseWriter, ResponseRenderer> renderer)
            throws StartupException, InterruptedException {
        ServerMetrics metrics = instrumentation.metrics();
        ResponseRenderer responses = renderer.apply(new ResponseWriter());
        TransactionIngest transactions = new TransactionIngest(
                pool,
                config.maxBlobsPerTx,
                config.convertV0Sidecars && config.fork.atLeast(Fork.OSAKA),
                metrics,
                ingestWork);
        JsonRpcRoute jsonRpc = jsonRpc(
                EngineMethods.all(pool, config.fork, config.maxBlobsPerRequest, transactions, metrics, hexCache),
                ingest,
                responses,
                metrics);
        EngineApiInitializer.Limits limits = new EngineApiInitializer.Limits(
                config.maxRequestBytes, config.maxPipelined, config.idleTimeout, config.writeTimeout);
        RefusalLog refusals = new RefusalLog();
        ConnectionLimit engineApi = new ConnectionLimit(config.maxConnections, "--max-connections", refusals, metrics);
        RouteTable engineRoutes = SszRoute.register(
                        RouteTable.builder()
                                .add(HttpMethod.POST, "/", jsonRpc)
                                .upgrade("websocket", "/", webSocket(jsonRpc, metrics))
                                .fallback(SszRoute.PREFIX, SszRoute.methodNotFound()),
                        new BlobLookup(pool, metrics),
                        config.fork,
                        config.maxBlobsPerRequest,
                        metrics)
                .build();
        EngineServer.Port engine = new EngineServer.Port(
                config.host,
                config.port,
                new EngineApiInitializer(
                                engineRoutes,
                                new JwtAuthenticator(secret.bytes(), clock),
                                limits,
                                largeRequests,
                                refusals,
                                metrics)
                        .withH2c(config.concurrentStreams()),
                engineApi);
        EngineServer.Port rpc = null;
        if (config.rpcPort != null) {
            int ingestQueue = ingest.getQueue().size() + ingest.getQueue().remainingCapacity();
            JsonRpcRoute open = jsonRpc(
                    EngineMethods.unauthenticated(transactions),
                    new ExecutorShare(ingest, ingestQueue / 2),
                    responses,
                    metrics);
            rpc = new EngineServer.Port(
                    config.host,
                    config.rpcPort,
                    new EngineApiInitializer(
                            RouteTable.builder().add(HttpMethod.POST, "/", open).build(),
                            Authenticator.NONE,
                            limits,
                            largeRequests,
                            refusals,
                            metrics),
                    new ConnectionLimit(config.rpcMaxConnections, "--rpc-max-connections", refusals, metrics));
        }
        EngineServer.Port scrape = instrumentation.prometheus() != null ? metricsPort(refusals) : null;
        List<EngineServer.Port> ports =
                Stream.of(engine, rpc, scrape).filter(Objects::nonNull).toList();
        EngineServer http;
        try {
            http = EngineServer.start(ports);
        } catch (EngineServer.BindFailure failure) {
            EngineServer.Port failed = failure.port();
            throw failed == scrape
                    ? StartupErrors.notBound(failure, "--metrics-port", "--metrics-host")
                    : StartupErrors.notBound(failure, failed == rpc ? "--rpc-port" : "port", "--host");
        }
        try {
            return new ListeningPorts(http, engine, rpc, scrape, ipc(jsonRpc, engineRoutes, limits, refusals, metrics));
        } catch (StartupException | InterruptedException | RuntimeException e) {
            http.close();
            throw e;
        }
    }

    /**
     * The IPC socket ({@code --ipc-path}), serving {@code jsonRpc} (newline-delimited) and {@code routes} (HTTP/1.1 and
     * h2c) without JWT; {@code null} without the option.
     */
    private IpcServer ipc(
            JsonRpcRoute jsonRpc,
            RouteTable routes,
            EngineApiInitializer.Limits limits,
            RefusalLog refusals,
            ServerMetrics metrics)
            throws StartupException, InterruptedException {
        if (config.ipcPath == null) {
            return null;
        }
        EngineApiInitializer http = new EngineApiInitializer(
                        routes, Authenticator.NONE, limits, largeRequests, refusals, metrics)
                .withH2c(config.concurrentStreams());
        try {
            return IpcServer.start(
                    config.ipcPath,
                    new IpcPipeline(jsonRpc, http, limits, largeRequests, metrics),
                    new ConnectionLimit(IpcServer.MAX_CONNECTIONS, "IPC connections", refusals, metrics));
        } catch (IOException e) {
            throw new StartupException("--ipc-path " + config.ipcPath + ": " + e.getMessage(), e);
        }
    }

    /** The WebSocket upgrade of the Engine API's port: its messages answered by {@code jsonRpc}, with its bounds. */
    private WebSocketRoute webSocket(JsonRpcRoute jsonRpc, ServerMetrics metrics) {
        return new WebSocketRoute(
                jsonRpc, config.maxRequestBytes, config.maxPipelined, config.idleTimeout, largeRequests, metrics);
    }

    /** A JSON-RPC route serving {@code methods}, its blocking ones run on {@code blocking}. */
    private JsonRpcRoute jsonRpc(
            List<RpcMethod> methods, Executor blocking, ResponseRenderer renderer, ServerMetrics metrics) {
        JsonRpcDispatcher dispatcher =
                new JsonRpcDispatcher(methods, renderer::reply, blocking, config.maxResponseBytes, metrics);
        RequestParser parser = new RequestParser(config.maxRequestBytes, config.maxBatchSize, metrics);
        return new JsonRpcRoute(parser, dispatcher, renderer, config.maxRequestBytes, metrics);
    }

    /**
     * {@code GET /metrics} on {@code --metrics-port}, with the gauges read at each scrape. Its connections and
     * responses are not counted in the metrics (a scrape would count itself): its pipeline and limit are given
     * {@link ServerMetrics#NONE}.
     */
    private EngineServer.Port metricsPort(RefusalLog refusals) {
        PrometheusMetrics prometheus = instrumentation.prometheus();
        prometheus.gaugePool(pool::size, BlobSizes.BLOB_SIZE);
        prometheus.gaugeIngestQueue(() -> ingest.getQueue().size());
        if (hexCache != null) {
            prometheus.gaugeHexCache(hexCache::bytes, hexCache::size);
        }
        RouteTable routes = MetricsRoute.routes(new MetricsEndpoint(prometheus), scrapes);
        EngineApiInitializer pipeline = new EngineApiInitializer(
                routes,
                Authenticator.NONE,
                MetricsRoute.limits(config.idleTimeout, config.writeTimeout),
                largeRequests,
                refusals,
                ServerMetrics.NONE);
        return new EngineServer.Port(
                config.metricsHost,
                config.metricsPort,
                pipeline,
                new ConnectionLimit(MetricsRoute.MAX_CONNECTIONS, "metrics port", refusals, ServerMetrics.NONE));
    }
}
