package example;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import okhttp3.OkHttpClient;
import org.junit.jupiter.api.Test;

/**
 * {@link OkHttpGetBlobs} against a real example server: every blob and cell proof it reads equals the bytes of the
 * server's pool files.
 */
class OkHttpGetBlobsTest {
    private static final int BLOBS = 3;

    @Test
    void readsThePoolsBlobsAndCellProofs() throws Exception {
        Path work = Files.createTempDirectory(Files.createDirectories(Path.of("target")), "server-");
        byte[] secret = new byte[32];
        new SecureRandom().nextBytes(secret);
        Path secretFile =
                Files.writeString(work.resolve("jwt.hex"), HexFormat.of().formatHex(secret));
        Path dataDir = work.resolve("data");
        OkHttpClient http =
                new OkHttpClient.Builder().callTimeout(Duration.ofSeconds(60)).build();
        try (ExampleServer server = ExampleServer.start(dataDir, secretFile, BLOBS)) {
            Map<String, PoolFiles.PooledBlob> pool = PoolFiles.read(dataDir);
            List<String> hashes = new ArrayList<>();
            for (String line : Files.readAllLines(dataDir.resolve("hashes.txt"))) {
                hashes.add(line.toLowerCase(Locale.ROOT));
            }
            assertEquals(BLOBS, hashes.size());
            assertEquals(pool.keySet(), new HashSet<>(hashes));
            Collections.reverse(hashes); // not the pool's order: the answers follow the request's

            OkHttpGetBlobs client = new OkHttpGetBlobs(http, "http://127.0.0.1:" + server.port(), secret);
            List<BlobAndProofV2> blobs = client.getBlobsV2(hashes);

            assertNotNull(blobs);
            assertEquals(BLOBS, blobs.size());
            for (int i = 0; i < BLOBS; i++) {
                PoolFiles.PooledBlob pooled = pool.get(hashes.get(i));
                assertArrayEquals(pooled.blob(), blobs.get(i).blob().toArrayUnsafe(), hashes.get(i));
                assertEquals(PoolFiles.CELLS, blobs.get(i).proofs().size());
                for (int j = 0; j < PoolFiles.CELLS; j++) {
                    assertArrayEquals(
                            pooled.cellProofs().get(j),
                            blobs.get(i).proofs().get(j).toArrayUnsafe());
                }
            }
            // All or nothing (osaka.md): one hash the pool lacks makes the result null.
            assertNull(client.getBlobsV2(List.of(hashes.get(0), "0x01" + "00".repeat(31))));
            assertEquals(0, server.stop());
        } finally {
            http.connectionPool().evictAll();
        }
    }
}
