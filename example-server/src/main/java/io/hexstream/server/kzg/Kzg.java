package io.hexstream.server.kzg;

import ethereum.ckzg4844.CKZG4844JNI;
import ethereum.ckzg4844.CKZGException;
import ethereum.ckzg4844.CellsAndProofs;
import io.hexstream.client.BlobSizes;
import io.hexstream.server.blob.BlobEntry;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * KZG for blobs (EIP-4844, EIP-7594) through c-kzg-4844's Java binding, with the mainnet trusted setup that
 * {@code org.web3j:crypto} ships as the resource {@code /trusted_setup.txt} (web3j 4.13.0, the last release compiled
 * for Java 17; its setup is byte-identical to 4.14.0's). The server loads the library and the setup at start
 * ({@link #load()}; each method also loads them if need be, once per JVM); every method is then safe to call from any
 * thread. A verification answers {@code false} also when c-kzg refuses an input (a proof or commitment that is not a
 * valid curve point, a blob that is not canonical field elements).
 *
 * <p>c-kzg reads both from files: the binding's own loaders copy them into {@code java.io.tmpdir}
 * ({@code ckzg4844jni@N/libckzg4844jni.so}, {@code kzg-trusted-setupN.txt}) and only ask for their deletion at a JVM
 * exit that runs its hooks, which a server ended by a signal does not. So {@link #load()} copies them into a directory
 * of its own there ({@code hexstream-kzgN}, the owner's only), loads them, and deletes the directory at once: a loaded
 * library stays mapped once its file is gone, and the setup is read whole by the load.
 */
public final class Kzg {
    private static final String TRUSTED_SETUP = "/trusted_setup.txt";
    /** Where c-kzg's binding keeps its native library for this platform, as its own loader looks it up. */
    private static final String LIBRARY =
            "/ethereum/ckzg4844/lib/" + System.getProperty("os.arch") + "/" + System.mapLibraryName("ckzg4844jni");
    /** The prefix of the directory that {@link #load()} copies them to and deletes. */
    static final String LOAD_DIRECTORY_PREFIX = "hexstream-kzg";

    private static volatile boolean loaded;

    private Kzg() {}

    /**
     * Loads the native library and the trusted setup, once, leaving no file behind.
     *
     * @throws UncheckedIOException if they cannot be copied to {@code java.io.tmpdir}
     * @throws UnsatisfiedLinkError if the binding has no library for this platform, or it does not load
     */
    public static void load() {
        if (!loaded) {
            synchronized (Kzg.class) {
                if (!loaded) {
                    loadFromCopies();
                    loaded = true;
                }
            }
        }
    }

    private static void loadFromCopies() {
        Path directory = null;
        try {
            directory = Files.createTempDirectory(LOAD_DIRECTORY_PREFIX);
            Path library = copy(CKZG4844JNI.class, LIBRARY, directory);
            // Loaded by this class's loader, which is the binding's: its native methods are looked up there.
            System.load(library.toString());
            CKZG4844JNI.loadTrustedSetup(
                    copy(Kzg.class, TRUSTED_SETUP, directory).toString(), 0);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot copy KZG's native library or trusted setup to " + directory, e);
        } finally {
            deleteAll(directory);
        }
    }

    /** {@code resource} of {@code owner} copied into {@code directory} under its own file name. */
    private static Path copy(Class<?> owner, String resource, Path directory) throws IOException {
        try (InputStream in = owner.getResourceAsStream(resource)) {
            if (in == null) {
                throw new UnsatisfiedLinkError(resource + " is not on the class path (no c-kzg for this platform?)");
            }
            Path file = directory.resolve(resource.substring(resource.lastIndexOf('/') + 1));
            Files.copy(in, file);
            return file;
        }
    }

    /** Deletes {@code directory} and the files in it; {@code null}: nothing. */
    private static void deleteAll(Path directory) {
        if (directory == null) {
            return;
        }
        try (var files = Files.list(directory)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                Files.deleteIfExists(file);
            }
            Files.deleteIfExists(directory);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + directory, e);
        }
    }

    /**
     * A pool entry for {@code blob} (131,072 bytes of canonical field elements) with its commitment, its blob proof,
     * its 128 cell proofs and its extension cells: about half a second of work on one core.
     */
    public static BlobEntry entryFor(byte[] blob) {
        load();
        byte[] commitment = CKZG4844JNI.blobToKzgCommitment(blob);
        byte[] blobProof = CKZG4844JNI.computeBlobKzgProof(blob, commitment);
        CellsAndProofs cells = CKZG4844JNI.computeCellsAndKzgProofs(blob);
        return new BlobEntry(blob, commitment, blobProof, cells.getProofs(), extensionOf(cells.getCells()));
    }

    /** Cells 64 to 127 of {@code blob}'s extension ({@code computeCells}, a few milliseconds): 131,072 bytes. */
    public static byte[] extensionCells(byte[] blob) {
        load();
        return extensionOf(CKZG4844JNI.computeCells(blob));
    }

    /**
     * {@code entry} (an EIP-4844 sidecar's blob, commitment and blob proof) converted to serve V2 and V3: its 128 cell
     * proofs and its extension cells from {@code computeCellsAndKzgProofs} (about half a second on one core), its blob
     * proof kept for V1.
     */
    public static BlobEntry withCellProofs(BlobEntry entry) {
        load();
        CellsAndProofs cells = CKZG4844JNI.computeCellsAndKzgProofs(entry.blob());
        return new BlobEntry(
                entry.blob(), entry.commitment(), entry.blobProof(), cells.getProofs(), extensionOf(cells.getCells()));
    }

    /** The second half of all 128 cells (262,144 bytes): the first half is the blob itself. */
    private static byte[] extensionOf(byte[] allCells) {
        return Arrays.copyOfRange(allCells, BlobSizes.BLOB_SIZE, BlobSizes.BLOB_SIZE + BlobSizes.EXTENSION_CELLS_SIZE);
    }

    /**
     * {@code blob_to_kzg_commitment} of {@code blob} (131,072 bytes): its 48-byte commitment.
     *
     * @throws IllegalArgumentException if c-kzg refuses the blob (not canonical field elements)
     */
    public static byte[] commitment(byte[] blob) {
        load();
        try {
            return CKZG4844JNI.blobToKzgCommitment(blob);
        } catch (CKZGException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    /**
     * EIP-4844 network form: {@code verifyBlobKzgProofBatch} of {@code count} blobs, each with its commitment and blob
     * proof.
     *
     * @param blobs {@code count} × 131,072 bytes back to back
     * @param commitments {@code count} × 48 bytes
     * @param proofs {@code count} × 48 bytes
     */
    public static boolean verifyBlobProofs(byte[] blobs, byte[] commitments, byte[] proofs, int count) {
        load();
        try {
            return CKZG4844JNI.verifyBlobKzgProofBatch(blobs, commitments, proofs, count);
        } catch (CKZGException e) {
            return false;
        }
    }

    /**
     * EIP-7594 network form: {@code verifyCellKzgProofBatch} over all 128 cells of each blob against its commitment, in
     * one batch.
     *
     * @param blobs n × 131,072 bytes back to back
     * @param commitments n × 48 bytes
     * @param cellProofs n × 128 × 48 bytes, blob by blob, cell by cell
     */
    public static boolean verifyCellProofs(byte[] blobs, byte[] commitments, byte[] cellProofs) {
        return verifiedExtensionCells(blobs, commitments, cellProofs) != null;
    }

    /**
     * As {@link #verifyCellProofs}, keeping the cells the verification computes: the extension cells (cells 64 to 127,
     * 131,072 bytes) of each blob, in order, if the proofs verify; {@code null} if not. The cells are computed once
     * ({@code computeCells}, a few milliseconds a blob).
     */
    public static List<byte[]> verifiedExtensionCells(byte[] blobs, byte[] commitments, byte[] cellProofs) {
        load();
        int blobCount = blobs.length / BlobSizes.BLOB_SIZE;
        int n = BlobSizes.CELLS_PER_EXT_BLOB;
        int cellSize = CKZG4844JNI.BYTES_PER_CELL;
        byte[] cells = new byte[blobCount * n * cellSize];
        byte[] cellCommitments = new byte[blobCount * n * BlobSizes.COMMITMENT_SIZE];
        long[] indices = new long[blobCount * n];
        try {
            for (int b = 0; b < blobCount; b++) {
                byte[] blob = Arrays.copyOfRange(blobs, b * BlobSizes.BLOB_SIZE, (b + 1) * BlobSizes.BLOB_SIZE);
                System.arraycopy(CKZG4844JNI.computeCells(blob), 0, cells, b * n * cellSize, n * cellSize);
                for (int i = 0; i < n; i++) {
                    System.arraycopy(
                            commitments,
                            b * BlobSizes.COMMITMENT_SIZE,
                            cellCommitments,
                            (b * n + i) * BlobSizes.COMMITMENT_SIZE,
                            BlobSizes.COMMITMENT_SIZE);
                    indices[b * n + i] = i;
                }
            }
            if (!CKZG4844JNI.verifyCellKzgProofBatch(cellCommitments, indices, cells, cellProofs)) {
                return null;
            }
        } catch (CKZGException e) {
            return null;
        }
        List<byte[]> extensions = new ArrayList<>(blobCount);
        for (int b = 0; b < blobCount; b++) {
            int from = b * n * cellSize + BlobSizes.BLOB_SIZE;
            extensions.add(Arrays.copyOfRange(cells, from, from + BlobSizes.EXTENSION_CELLS_SIZE));
        }
        return extensions;
    }
}
