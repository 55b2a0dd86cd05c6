package io.hexstream.server.tx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.hexstream.server.blob.Origin;
import io.hexstream.server.testing.FuzzPool;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * Jazzer target for raw transactions: the input is what {@code eth_sendRawTransaction} decodes from its hex.
 * Invariants: {@link BlobTransactionDecoder} and {@link TransactionIngest} (over a {@link FuzzPool}) throw nothing but
 * {@link TransactionRefusedException}, whose message names the failed check ({@code "RLP: …"} exactly when
 * undecodable), both for the same reason when the decoder refuses; and a refused input leaves the pool, in memory and
 * on disk, as it was. Seeds (small transactions of the right shape with sidecars far too small, and near misses) in
 * {@code RawTransactionFuzzTestInputs/}; the build fuzzes it for 60 s (the {@code fuzz} profile).
 */
class RawTransactionFuzzTest {
    private static final Pattern REFUSAL = Pattern.compile("[A-Za-z0-9 ]+: \\S.*", Pattern.DOTALL);

    @TempDir
    static Path data;

    private static FuzzPool pool;

    @BeforeAll
    static void setUp() throws IOException {
        pool = FuzzPool.create(data);
    }

    @FuzzTest(maxDuration = "60s")
    void refusedTransactionsChangeNothing(byte[] raw) {
        List<List<String>> before = pool.state();
        TransactionRefusedException decoding = null;
        try {
            BlobTransactionDecoder.decode(raw);
        } catch (TransactionRefusedException e) {
            assertWellFormed(e);
            decoding = e;
        }
        TransactionRefusedException ingesting = assertThrows(
                TransactionRefusedException.class, () -> pool.ingest().accept(raw, Origin.AUTHENTICATED));
        assertWellFormed(ingesting);
        if (decoding != null) {
            assertEquals(decoding.getMessage(), ingesting.getMessage());
        }
        assertEquals(before, pool.state(), "a refused transaction changed the pool");
    }

    private static void assertWellFormed(TransactionRefusedException e) {
        assertTrue(REFUSAL.matcher(e.getMessage()).matches(), e.getMessage());
        assertEquals(e.undecodable(), e.getMessage().startsWith("RLP: "), e.getMessage());
    }
}
