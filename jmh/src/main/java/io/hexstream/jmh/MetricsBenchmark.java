package io.hexstream.jmh;

import io.hexstream.server.metrics.PrometheusMetrics;
import io.hexstream.server.metrics.ResponseSummary;
import io.hexstream.server.metrics.ServerMetrics;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What the request path's calls into the metrics cost, with metrics on ({@code metrics=prometheus}, the server's
 * {@link PrometheusMetrics}) and off ({@code none}, {@link ServerMetrics#NONE}): {@code chunk} is the one call made per
 * chunk written (a chunk's bytes handed to the socket), {@code response} the calls made once per 128-blob getBlobsV2
 * response (the reply counted, the blobs looked up, in flight and out, the time to last byte and bytes). {@code -prof
 * gc} adds the bytes allocated per call.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(
        value = 1,
        jvmArgs = {"-Xms2g", "-Xmx2g", "-XX:+AlwaysPreTouch"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class MetricsBenchmark {
    private static final String METHOD = "engine_getBlobsV2";
    private static final int CHUNK_BYTES = 256 * 1024;
    private static final ResponseSummary EXCHANGE = new ResponseSummary(METHOD, 128, 128, null);

    @Param({"prometheus", "none"})
    public String metrics;

    private ServerMetrics target;

    @Setup
    public void setUp() {
        target = metrics.equals("prometheus") ? new PrometheusMetrics() : ServerMetrics.NONE;
    }

    @Benchmark
    public void chunk() {
        target.bytesWritten(CHUNK_BYTES);
    }

    @Benchmark
    public void response() {
        target.blobsLookedUp(METHOD, 128, 128);
        target.replied(METHOD, null);
        target.responseStarted();
        target.responded(ServerMetrics.HTTP, EXCHANGE, 35_212_671, 20_000_000, true);
        target.responseDone();
    }
}
