package io.hexstream.server;

import static io.hexstream.server.testing.BlobAssertions.assertBlobAndProofV2;
import static io.hexstream.server.testing.EngineClient.dataReply;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.hexstream.client.VersionedHash;
import io.hexstream.server.blob.BlobEntry;
import io.hexstream.server.blob.PoolItem;
import io.hexstream.server.testing.BlobTransactionBuilder;
import io.hexstream.server.testing.ServerProcess;
import io.hexstream.server.testing.TestBlobs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pool survives SIGKILL: twenty one-blob transactions (twenty distinct blobs with cell proofs) are sent to a server
 * in its own JVM, which is killed right after the last answer; started again on the same data dir it serves all twenty.
 * A file corrupted on disk is logged, skipped and not served.
 */
class DurabilityTest {
    private static final int COUNT = 20;
    private static List<BlobEntry> blobs;
    private static List<BlobTransactionBuilder> transactions;
    private static List<VersionedHash> hashes;

    @BeforeAll
    static void transactions() {
        blobs = TestBlobs.first(COUNT);
        transactions = IntStream.range(0, COUNT)
                .mapToObj(i -> BlobTransactionBuilder.withCellProofs(List.of(blobs.get(i)))
                        .nonce(i))
                .toList();
        hashes = blobs.stream().map(BlobEntry::versionedHash).toList();
    }

    /** Sends the twenty transactions to a fresh server over {@code data}, then SIGKILLs it at once. */
    private static void sendAllThenKill(Path data, Path log) throws Exception {
        try (ServerProcess server = ServerProcess.start(data, log)) {
            for (BlobTransactionBuilder tx : transactions) {
                assertEquals(dataReply(1, tx.hash()), server.client().sendRawTransaction(tx.build()));
            }
            server.kill();
            assertNoLeak(server);
        }
    }

    private static List<Path> poolFiles(Path data) throws Exception {
        try (Stream<Path> files = Files.list(data.resolve("blobs"))) {
            return files.sorted().toList();
        }
    }

    private static void assertNoLeak(ServerProcess server) {
        assertFalse(server.log().contains("LEAK"), server.log());
    }

    @Test
    void allTwentyAreServedAfterSigkill(@TempDir Path dir) throws Exception {
        Path data = dir.resolve("data");
        sendAllThenKill(data, dir.resolve("first.log"));

        try (ServerProcess server = ServerProcess.start(data, dir.resolve("second.log"))) {
            JsonNode served = server.client().getBlobs("V2", hashes);
            assertEquals(COUNT, served.size());
            for (int i = 0; i < COUNT; i++) {
                assertBlobAndProofV2(blobs.get(i), served.get(i));
            }
            List<Path> files = poolFiles(data);
            assertEquals(COUNT, files.size());
            BlobTransactionBuilder again = transactions.get(3);
            assertEquals(
                    dataReply(1, again.hash()),
                    server.client().sendRawTransaction(again.build()),
                    "known after restart");
            assertEquals(files, poolFiles(data), "and not stored twice");
            server.kill();
            assertNoLeak(server);
        }
    }

    @Test
    void aCorruptFileIsLoggedAndSkippedAndTheOtherNineteenAreServed(@TempDir Path dir) throws Exception {
        Path data = dir.resolve("data");
        sendAllThenKill(data, dir.resolve("first.log"));
        String key = PoolItem.keyOf(transactions.get(7).hash());
        Path corrupt = poolFiles(data).stream()
                .filter(p -> p.getFileName().toString().endsWith("-" + key + ".blob"))
                .findFirst()
                .orElseThrow();
        byte[] bytes = Files.readAllBytes(corrupt);
        bytes[bytes.length / 2] ^= 0x01;
        Files.write(corrupt, bytes);

        try (ServerProcess server = ServerProcess.start(data, dir.resolve("second.log"))) {
            assertTrue(
                    server.log()
                            .contains("WARN BlobStore - skipping corrupt pool file " + corrupt + ": checksum mismatch"),
                    server.log());
            JsonNode served = server.client().getBlobs("V3", hashes);
            assertEquals(COUNT, served.size());
            for (int i = 0; i < COUNT; i++) {
                if (i == 7) {
                    assertTrue(served.get(i).isNull(), "the corrupt transaction's blob is not served");
                } else {
                    assertBlobAndProofV2(blobs.get(i), served.get(i));
                }
            }
            server.kill();
            assertNoLeak(server);
        }
    }
}
