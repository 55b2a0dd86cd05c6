package io.hexstream.server.testing;

import io.hexstream.codec.testing.Poll;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.function.Predicate;

/** A Prometheus scraper of a server's {@code --metrics-port}. */
public final class Scraper {
    /** What Prometheus 2.x sends, OpenMetrics first. */
    public static final String OPENMETRICS_ACCEPT =
            "application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5,*/*;q=0.1";

    private final HttpClient client =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final URI uri;

    public Scraper(InetSocketAddress address) {
        this.uri = URI.create("http://127.0.0.1:" + address.getPort() + "/metrics");
    }

    /** GET /metrics with {@code accept} (or none); the whole response. */
    public HttpResponse<String> get(String accept) {
        HttpRequest.Builder request =
                HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).GET();
        if (accept != null) {
            request.header("Accept", accept);
        }
        try {
            return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The Prometheus text exposition, parsed. */
    public Exposition scrape() {
        HttpResponse<String> response = get(null);
        if (response.statusCode() != 200) {
            throw new AssertionError("HTTP " + response.statusCode());
        }
        return Exposition.prometheus(response.body());
    }

    /**
     * The exposition once no response is in flight (every response written is in the metrics: the server counts a
     * response before it stops counting it in flight); at most 10 s.
     */
    public Exposition settled() {
        try {
            Poll.within(() -> scrape().value("hexstream_http_responses_in_flight") == 0, Duration.ofSeconds(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        return scrape();
    }

    /** Scrapes until {@code done} (at most 10 s); the last scrape. */
    public Exposition await(Predicate<Exposition> done) throws InterruptedException {
        Poll.within(() -> done.test(scrape()), Duration.ofSeconds(10));
        return scrape();
    }
}
