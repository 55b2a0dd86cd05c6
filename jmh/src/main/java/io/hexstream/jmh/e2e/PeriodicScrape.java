package io.hexstream.jmh.e2e;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * What Prometheus does to a server: {@code GET /metrics} at a fixed interval (asking for OpenMetrics, as Prometheus
 * does), on a daemon thread of its own, each body handed to a consumer; a failed scrape (or a consumer's exception) is
 * printed on standard error and the next one goes ahead. Close it to stop.
 */
final class PeriodicScrape implements AutoCloseable {
    /** Prometheus' {@code Accept}: OpenMetrics first. */
    static final String ACCEPT = "application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5,*/*;q=0.1";

    private final HttpClient client =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "scraper");
        thread.setDaemon(true);
        return thread;
    });
    private final HttpRequest request;
    private final Consumer<String> bodies;

    /**
     * Scrapes {@code metrics} every {@code interval} (from the end of one scrape to the start of the next, so that a
     * slow one does not bunch the next ones), the first at once, and hands each body to {@code bodies}.
     */
    PeriodicScrape(InetSocketAddress metrics, Duration interval, Consumer<String> bodies) {
        this.request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + metrics.getPort() + "/metrics"))
                .header("Accept", ACCEPT)
                .timeout(Duration.ofSeconds(10))
                .GET()
                .build();
        this.bodies = bodies;
        timer.scheduleWithFixedDelay(this::scrape, 0, interval.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** One scrape now, on the calling thread: the body. */
    String scrapeNow() throws IOException, InterruptedException {
        HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException("GET /metrics: HTTP " + response.statusCode());
        }
        return response.body();
    }

    private void scrape() {
        try {
            bodies.accept(scrapeNow());
        } catch (IOException | RuntimeException e) { // printed, and the next scrape goes ahead
            System.err.println("scrape failed: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
