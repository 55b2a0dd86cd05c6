package io.hexstream.server;

import static io.hexstream.server.testing.BlobAssertions.assertBlobAndProofV1;
import static io.hexstream.server.testing.BlobAssertions.assertBlobAndProofV2;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.JsonNode;
import io.hexstream.client.VersionedHash;
import io.hexstream.codec.testing.Poll;
import io.hexstream.server.blob.BlobEntry;
import io.hexstream.server.blob.PoolItem;
import io.hexstream.server.engine.Fork;
import io.hexstream.server.kzg.Kzg;
import io.hexstream.server.pool.DurableBlobPool;
import io.hexstream.server.rpc.ResponseRenderer;
import io.hexstream.server.rpc.ResponseWriter;
import io.hexstream.server.testing.EngineClient;
import io.hexstream.server.testing.EngineServerFixture;
import io.hexstream.server.testing.Hxb2Files;
import io.hexstream.server.testing.TestBlobs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A data dir of the format before extension cells ({@code HXB2}: 14 generated blobs and a transaction of 6, written as
 * the old server wrote them) under a server of today: once it is bound ({@link ExampleServer.Builder#open}), V1
 * (prague) or V2 and V3 (osaka) answer every blob, before any cell is computed; from {@link ExampleServer#topUp} on,
 * every entry gains the extension cells of {@code computeCells} in the background and every file becomes {@code HXB3},
 * in place; a restart loads them as {@code HXB3}, with their cells, and rewrites nothing.
 */
class StoreUpgradeTest {
    private static final int GENERATED = 14;
    private static final long UPGRADE_TIMEOUT_MS = 60_000;

    @TempDir
    Path data;

    private List<Path> files() throws Exception {
        try (Stream<Path> listing = Files.list(data.resolve("blobs"))) {
            return listing.sorted().toList();
        }
    }

    private List<String> formats() throws Exception {
        return files().stream().map(Hxb2Files::format).toList();
    }

    private static void assertServed(EngineClient server, Fork fork, List<BlobEntry> blobs) {
        List<VersionedHash> hashes =
                blobs.stream().map(BlobEntry::versionedHash).toList();
        for (String version : fork == Fork.PRAGUE ? List.of("V1") : List.of("V2", "V3")) {
            JsonNode served = server.getBlobs(version, hashes);
            assertEquals(blobs.size(), served.size(), version);
            for (int i = 0; i < blobs.size(); i++) {
                if (fork == Fork.PRAGUE) {
                    assertBlobAndProofV1(blobs.get(i), served.get(i));
                } else {
                    assertBlobAndProofV2(blobs.get(i), served.get(i));
                }
            }
        }
    }

    @ParameterizedTest
    @EnumSource(names = {"PRAGUE", "OSAKA"})
    void hxb2FilesAreServedAtOnceThenGainTheirCellsAndBecomeHxb3(Fork fork) throws Exception {
        List<BlobEntry> blobs = TestBlobs.first(GENERATED + 6);
        for (int i = 0; i < GENERATED; i++) {
            Hxb2Files.write(data, i + 1, PoolItem.generated(blobs.get(i)));
        }
        byte[] txHash = new byte[32];
        txHash[0] = 0x7a;
        Hxb2Files.write(data, GENERATED + 1, PoolItem.transaction(txHash, blobs.subList(GENERATED, GENERATED + 6)));
        List<Path> files = files();

        ServerOptions options = EngineServerFixture.options(data, data, "--fork", fork.name(), "--generate", "0");
        try (ExampleServer server = ExampleServer.builder(options)
                .renderer(writer -> ResponseRenderer.streaming(new ResponseWriter()))
                .open()) {
            DurableBlobPool pool = server.pool();
            EngineClient client = EngineClient.authenticated(
                    server.engineAddress().getPort(), server.secret().bytes());
            assertEquals(15, pool.itemsWithoutExtensionCells().size(), "loaded without cells");
            assertServed(client, fork, blobs);
            for (BlobEntry blob : blobs) {
                assertNull(pool.get(blob.versionedHash()).extensionCells(), "served before its cells exist");
            }

            server.topUp(() -> false);
            Poll.within(() -> pool.itemsWithoutExtensionCells().isEmpty(), Duration.ofMillis(UPGRADE_TIMEOUT_MS));
            assertEquals(List.of(), pool.itemsWithoutExtensionCells());
            for (BlobEntry blob : blobs) {
                assertArrayEquals(
                        Kzg.extensionCells(blob.blob()),
                        pool.get(blob.versionedHash()).extensionCells());
            }
            assertEquals(files, files(), "rewritten in place");
            assertEquals(Collections.nCopies(GENERATED + 1, "HXB3"), formats());
            assertServed(client, fork, blobs);
        }

        List<byte[]> upgraded = new ArrayList<>();
        for (Path file : files) {
            upgraded.add(Files.readAllBytes(file));
        }
        try (EngineServerFixture restarted = EngineServerFixture.startEmpty(fork, data)) {
            DurableBlobPool pool = restarted.server().pool();
            assertEquals(List.of(), pool.itemsWithoutExtensionCells(), "loaded as HXB3, nothing to recompute");
            for (BlobEntry blob : blobs) {
                assertArrayEquals(
                        Kzg.extensionCells(blob.blob()),
                        pool.get(blob.versionedHash()).extensionCells());
            }
            assertServed(restarted, fork, blobs);
        }
        for (int i = 0; i < files.size(); i++) {
            assertArrayEquals(upgraded.get(i), Files.readAllBytes(files.get(i)), "not rewritten: " + files.get(i));
        }
    }
}
