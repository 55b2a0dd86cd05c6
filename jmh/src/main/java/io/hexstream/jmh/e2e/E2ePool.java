package io.hexstream.jmh.e2e;

import io.hexstream.client.VersionedHash;
import io.hexstream.server.auth.JwtAuthenticator;
import io.hexstream.server.auth.JwtSecret;
import io.hexstream.server.kzg.Kzg;
import io.hexstream.server.metrics.ServerMetrics;
import io.hexstream.server.pool.DurableBlobPool;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;

/**
 * The pool every end-to-end server serves: {@value EndToEndBenchmark#POOL_BLOBS} real-KZG blobs the example server
 * generates once into a data dir (then reuses), the versioned hashes it lists in {@code hashes.txt}, and tokens signed
 * with the data dir's JWT secret. Every blob is stored with its extension cells.
 *
 * @param tokens signs the clients' bearer tokens
 * @param hashes the pool's versioned hashes, in the order they were generated
 */
record E2ePool(JwtAuthenticator tokens, List<VersionedHash> hashes) {
    /** The pool of {@code dataDir}, generated there first if it holds fewer blobs (its log beside it). */
    static E2ePool prepare(Path dataDir) throws IOException {
        Files.createDirectories(dataDir);
        try (ServerJvm generator = ServerJvm.start(
                "prerendered", false, dataDir, dataDir.toAbsolutePath().resolve("server.log"))) {
            generator.ask("heap");
        }
        // Items stored before extension cells were (HXB2 files) get them here, once, so that every server's
        // copy serves getBlobsV4 from its first request (a server would compute them in the background).
        DurableBlobPool stored = DurableBlobPool.open(dataDir, EndToEndBenchmark.POOL_BLOBS, ServerMetrics.NONE);
        for (String key : stored.itemsWithoutExtensionCells()) {
            stored.completeExtensionCells(key, Kzg::extensionCells);
        }
        JwtAuthenticator tokens = new JwtAuthenticator(
                JwtSecret.read(dataDir.resolve(JwtSecret.DEFAULT_FILE)).bytes(), Clock.systemUTC());
        List<VersionedHash> hashes = Files.readAllLines(dataDir.resolve("hashes.txt")).stream()
                .map(VersionedHash::decode)
                .toList()
                .subList(0, EndToEndBenchmark.POOL_BLOBS);
        return new E2ePool(tokens, hashes);
    }
}
