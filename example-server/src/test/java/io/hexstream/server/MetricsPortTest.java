package io.hexstream.server;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hexstream.server.auth.Authenticator;
import io.hexstream.server.engine.Fork;
import io.hexstream.server.exec.BoundedExecutor;
import io.hexstream.server.http.ConnectionLimit;
import io.hexstream.server.http.EngineApiInitializer;
import io.hexstream.server.http.EngineServer;
import io.hexstream.server.http.RefusalLog;
import io.hexstream.server.metrics.MetricsEndpoint;
import io.hexstream.server.metrics.PrometheusMetrics;
import io.hexstream.server.metrics.ServerMetrics;
import io.hexstream.server.testing.EngineClient;
import io.hexstream.server.testing.EngineServerFixture;
import io.hexstream.server.testing.HttpConnection;
import io.hexstream.server.testing.Scraper;
import io.hexstream.server.testing.ServerSockets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * {@code --metrics-port} is a port of the one pipeline: 404 and 405 from its route table with the connection kept,
 * {@code HEAD} answered with the length and no body, places of its own (a full metrics port leaves the Engine API's
 * places alone, and the other way round), the idle timeout, and the scrape run off the I/O threads.
 */
class MetricsPortTest {
    private static final String CALL = EngineClient.request(1, "engine_exchangeCapabilities", "[[]]");

    private static byte[] request(String method, String path) {
        return (method + " " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").getBytes(US_ASCII);
    }

    /** A {@code GET /metrics} on {@code connection}, its whole response read; its status. */
    private static int scrape(HttpConnection connection) throws Exception {
        connection.send(request("GET", MetricsEndpoint.PATH));
        HttpConnection.Head head = connection.readHead();
        connection.readBody(head);
        return head.status();
    }

    /** A JSON-RPC call on the Engine API port, its whole response read; its status. */
    private static int call(EngineServerFixture server, HttpConnection connection) throws Exception {
        connection.send(HttpConnection.post(server.token(), CALL));
        HttpConnection.Head head = connection.readHead();
        connection.readBody(head);
        return head.status();
    }

    @Test
    void otherPathsAndMethodsAreAnsweredByTheTable() throws Exception {
        try (EngineServerFixture server = EngineServerFixture.start(Fork.OSAKA, "--metrics-port", "0")) {
            int port = server.server().metricsAddress().getPort();
            try (HttpConnection refused = HttpConnection.open(port)) {
                refused.send(request("GET", "/"));
                assertEquals(
                        "HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\nconnection: close\r\n\r\n",
                        refused.readHead().text());
                assertTrue(refused.closedByServerWithin(Duration.ofSeconds(2)), "closed after a refusal");
            }
            try (HttpConnection refused = HttpConnection.open(port)) {
                refused.send(request("DELETE", MetricsEndpoint.PATH));
                assertEquals(
                        "HTTP/1.1 405 Method Not Allowed\r\ncontent-length: 0\r\nconnection: close"
                                + "\r\nallow: GET, HEAD\r\n\r\n",
                        refused.readHead().text());
                assertTrue(refused.closedByServerWithin(Duration.ofSeconds(2)), "closed after a refusal");
            }
            try (HttpConnection connection = HttpConnection.open(port)) {
                connection.send(request("HEAD", MetricsEndpoint.PATH + "?name[]=x"));
                HttpConnection.Head head = connection.readHead();
                assertEquals(200, head.status());
                assertTrue(head.contentLength() > 1000, head.text());
                assertEquals(200, scrape(connection), "no body followed the HEAD response: the next head came next");
            }
        }
    }

    @Test
    void theMetricsPortHasPlacesOfItsOwn() throws Exception {
        try (EngineServerFixture server =
                EngineServerFixture.start(Fork.OSAKA, "--metrics-port", "0", "--max-connections", "2")) {
            int metricsPort = server.server().metricsAddress().getPort();
            List<HttpConnection> scrapers = new ArrayList<>();
            try {
                for (int i = 0; i < MetricsRoute.MAX_CONNECTIONS; i++) {
                    scrapers.add(HttpConnection.open(metricsPort));
                    assertEquals(200, scrape(scrapers.get(i)), "scraper " + i);
                }
                try (HttpConnection extra = HttpConnection.open(metricsPort)) {
                    assertTrue(extra.closedByServerWithin(Duration.ofSeconds(2)), "one more is refused at accept");
                }
                try (HttpConnection first = HttpConnection.open(server.port());
                        HttpConnection second = HttpConnection.open(server.port())) {
                    assertEquals(200, call(server, first));
                    assertEquals(200, call(server, second), "the Engine API's places are all free");
                }
            } finally {
                for (HttpConnection scraper : scrapers) {
                    scraper.close();
                }
            }
            assertEquals(0, ServerSockets.awaitAtMost(metricsPort, 0, Duration.ofSeconds(5)));
            assertEquals(0, ServerSockets.awaitAtMost(server.port(), 0, Duration.ofSeconds(5)));
            try (HttpConnection first = HttpConnection.open(server.port());
                    HttpConnection second = HttpConnection.open(server.port())) {
                assertEquals(200, call(server, first));
                assertEquals(200, call(server, second));
                try (HttpConnection third = HttpConnection.open(server.port())) {
                    assertTrue(third.closedByServerWithin(Duration.ofSeconds(2)), "the Engine API is full");
                }
                assertEquals(
                        200,
                        new Scraper(server.server().metricsAddress()).get(null).statusCode(),
                        "a full Engine API can still be scraped");
            }
        }
    }

    @Test
    void anIdleConnectionIsClosedAfterTheIdleTimeout() throws Exception {
        try (EngineServerFixture server =
                        EngineServerFixture.start(Fork.OSAKA, "--metrics-port", "0", "--idle-timeout", "1");
                HttpConnection silent =
                        HttpConnection.open(server.server().metricsAddress().getPort());
                HttpConnection scraped =
                        HttpConnection.open(server.server().metricsAddress().getPort())) {
            long opened = System.nanoTime();
            assertEquals(200, scrape(scraped));
            assertFalse(silent.closedByServerWithin(Duration.ofMillis(700)), "open before the timeout");
            assertTrue(silent.closedByServerWithin(Duration.ofSeconds(3)), "closed after it");
            long millis = (System.nanoTime() - opened) / 1_000_000;
            assertTrue(millis >= 900, millis + " ms");
            assertTrue(scraped.closedByServerWithin(Duration.ofSeconds(3)), "a kept-alive connection left unused");
        }
    }

    /** The thread the scrape runs on, seen by a gauge read during the scrape. */
    @Test
    void theScrapeRunsOffTheIoThreads() throws Exception {
        PrometheusMetrics prometheus = new PrometheusMetrics();
        AtomicReference<String> seen = new AtomicReference<>();
        prometheus.gaugeIngestQueue(() -> {
            seen.set(Thread.currentThread().getName());
            return 0;
        });
        ExecutorService scrapes = BoundedExecutor.create(
                MetricsRoute.SCRAPE_THREAD, MetricsRoute.SCRAPE_THREADS, MetricsRoute.SCRAPE_QUEUE);
        RefusalLog refusals = new RefusalLog();
        EngineApiInitializer pipeline = new EngineApiInitializer(
                MetricsRoute.routes(new MetricsEndpoint(prometheus), scrapes),
                Authenticator.NONE,
                MetricsRoute.limits(Duration.ofSeconds(30), Duration.ofSeconds(60)),
                scrapes,
                refusals,
                ServerMetrics.NONE);
        EngineServer.Port port = new EngineServer.Port(
                "127.0.0.1",
                0,
                pipeline,
                new ConnectionLimit(MetricsRoute.MAX_CONNECTIONS, "metrics port", refusals, ServerMetrics.NONE));
        try (EngineServer server = EngineServer.start(List.of(port))) {
            assertEquals(0, new Scraper(server.address(port)).scrape().value("hexstream_ingest_queue_depth"));
            assertNotNull(seen.get());
            assertTrue(seen.get().startsWith(MetricsRoute.SCRAPE_THREAD + "-"), seen.get());
            assertFalse(seen.get().startsWith(EngineServer.IO_THREADS), seen.get());
        } finally {
            scrapes.shutdownNow();
        }
    }
}
