package io.hexstream.server;

import io.hexstream.server.exchange.ReplySink;
import io.hexstream.server.http.EngineApiInitializer;
import io.hexstream.server.http.Route;
import io.hexstream.server.http.RouteTable;
import io.hexstream.server.metrics.MetricsEndpoint;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufOutputStream;
import io.netty.handler.codec.http.DefaultHttpHeadersFactory;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code GET} and {@code HEAD} {@link MetricsEndpoint#PATH} on {@code --metrics-port}: the port's one path, served
 * through the Engine API's pipeline ({@link EngineApiInitializer}: 404 and 405 from the table, the idle and write
 * timeouts, responses in request order), no JWT and no body. The scrape (the JVM's metrics scan every thread's state)
 * runs on the scrape executor, never on an I/O thread, and its response goes back through the {@link ReplySink} to the
 * channel's loop; a scrape that finds the executor full gets {@code 503}. The port has places of its own
 * ({@link #MAX_CONNECTIONS}, not {@code --max-connections}): scrapers and Engine API clients cannot take each other's.
 */
final class MetricsRoute implements Route {
    private static final Logger LOG = LoggerFactory.getLogger(MetricsRoute.class);

    /** Connections open at once on the metrics port; more are closed at accept. A few scrapers need a few. */
    static final int MAX_CONNECTIONS = 8;
    /** Requests per connection taken before their responses are written; a scraper sends one at a time. */
    static final int MAX_PIPELINED = 2;
    /** Prefix of the name of the thread that scrapes. */
    static final String SCRAPE_THREAD = "hexstream-metrics";
    /** Threads that scrape: one (scrapes of the same registry gain nothing from more). */
    static final int SCRAPE_THREADS = 1;
    /** Scrapes that may wait for the thread: every request the port can have taken; more get {@code 503}. */
    static final int SCRAPE_QUEUE = MAX_CONNECTIONS * MAX_PIPELINED;

    private final MetricsEndpoint endpoint;
    private final Executor scrapes;
    private final boolean head;

    private MetricsRoute(MetricsEndpoint endpoint, Executor scrapes, boolean head) {
        this.endpoint = endpoint;
        this.scrapes = scrapes;
        this.head = head;
    }

    /**
     * The metrics port's table: {@code GET} and {@code HEAD} on {@link MetricsEndpoint#PATH}.
     *
     * @param scrapes where scrapes run: a bounded executor off the I/O threads (its owner shuts it down)
     */
    static RouteTable routes(MetricsEndpoint endpoint, Executor scrapes) {
        return RouteTable.builder()
                .add(HttpMethod.GET, MetricsEndpoint.PATH, new MetricsRoute(endpoint, scrapes, false))
                .add(HttpMethod.HEAD, MetricsEndpoint.PATH, new MetricsRoute(endpoint, scrapes, true))
                .build();
    }

    /**
     * The metrics port's bounds: no request body, {@link #MAX_PIPELINED}, and the Engine API's idle and write timeouts.
     */
    static EngineApiInitializer.Limits limits(Duration idleTimeout, Duration writeTimeout) {
        return new EngineApiInitializer.Limits(0, MAX_PIPELINED, idleTimeout, writeTimeout);
    }

    @Override
    public boolean needsJwt() {
        return false;
    }

    @Override
    public int maxBodyBytes() {
        return 0;
    }

    @Override
    public void handle(ByteBuf body, ReplySink sink) {
        String accept = sink.requestHeaders().get(HttpHeaderNames.ACCEPT);
        try {
            scrapes.execute(() -> scrape(accept, sink));
        } catch (RejectedExecutionException full) {
            sink.respondEmpty(HttpResponseStatus.SERVICE_UNAVAILABLE, null);
        }
    }

    /**
     * On the scrape executor: the exposition in one pooled buffer, handed to {@code sink} (a {@code HEAD}'s without it,
     * its {@code Content-Length} the {@code GET}'s).
     */
    private void scrape(String accept, ReplySink sink) {
        ByteBuf body = ByteBufAllocator.DEFAULT.buffer();
        String contentType;
        try (ByteBufOutputStream out = new ByteBufOutputStream(body)) {
            contentType = endpoint.write(accept, out);
        } catch (Throwable e) { // any failure is answered, or the connection would wait for this response
            body.release();
            LOG.warn("could not write the metrics", e);
            sink.respondEmpty(HttpResponseStatus.INTERNAL_SERVER_ERROR, null);
            return;
        }
        int length = body.readableBytes();
        if (head) {
            body.clear();
        }
        HttpHeaders headers = DefaultHttpHeadersFactory.headersFactory()
                .newHeaders()
                .set(HttpHeaderNames.CONTENT_TYPE, contentType)
                .setInt(HttpHeaderNames.CONTENT_LENGTH, length);
        sink.respond(HttpResponseStatus.OK, headers, body, null);
    }
}
