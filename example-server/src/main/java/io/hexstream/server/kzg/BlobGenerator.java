package io.hexstream.server.kzg;

import io.hexstream.server.blob.BlobEntry;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/** Random valid blobs with real KZG commitments and proofs, computed on all cores. */
public final class BlobGenerator {
    private static final int FIELD_ELEMENTS_PER_BLOB = 4096;
    private static final int BYTES_PER_FIELD_ELEMENT = 32;

    private BlobGenerator() {}

    /**
     * A blob of random canonical field elements: each big-endian element has a zero first byte, so it is below 2^248,
     * well under the BLS12-381 scalar field modulus.
     */
    public static byte[] randomBlob(Random random) {
        byte[] blob = new byte[FIELD_ELEMENTS_PER_BLOB * BYTES_PER_FIELD_ELEMENT];
        random.nextBytes(blob);
        for (int i = 0; i < blob.length; i += BYTES_PER_FIELD_ELEMENT) {
            blob[i] = 0;
        }
        return blob;
    }

    /** {@code count} entries from blobs seeded by {@code seed}, index by index, in parallel. */
    public static List<BlobEntry> generate(int count, long seed) {
        Kzg.load();
        SplittableRandom seeds = new SplittableRandom(seed);
        long[] blobSeeds = seeds.longs(count).toArray();
        return IntStream.range(0, count)
                .parallel()
                .mapToObj(i -> Kzg.entryFor(randomBlob(new Random(blobSeeds[i]))))
                .collect(Collectors.toList());
    }
}
