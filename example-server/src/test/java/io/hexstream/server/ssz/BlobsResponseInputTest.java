package io.hexstream.server.ssz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hexstream.client.CellIndices;
import io.hexstream.server.blob.BlobEntry;
import io.hexstream.server.engine.GetBlobs;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.io.ByteArrayOutputStream;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/**
 * The response containers' bytes against vectors written by hand from {@code refactor-ssz.md}'s layouts, every offset
 * in hex, at chunk sizes that cut blobs, cells, proofs and (1,027; 131,086 for V2) a 4-byte offset across two chunks;
 * V4 with entries lacking extension cells or cell proofs.
 */
class BlobsResponseInputTest {
    private static final int[] CHUNK_SIZES = {1024, 1027, 1029, 131_086, 256 * 1024};

    @Test
    void emptyListsAreTheContainersOffsetAlone() throws Exception {
        for (GetBlobs.Version version : GetBlobs.Version.values()) {
            assertBody(hex("04000000"), version, new BlobEntry[0]);
        }
    }

    @Test
    void v1IsTheOffsetThenFixedSizeEntries() throws Exception {
        BlobEntry a = entry(1);
        byte[] expected = concat("04000000" + "01", a.blob(), a.blobProof(), "00", new byte[131_072 + 48]);
        assertBody(expected, GetBlobs.Version.V1, new BlobEntry[] {a, null});
    }

    @Test
    void v2AndV3HaveAnOffsetPerEntryAndTwoInEach() throws Exception {
        BlobEntry a = entry(3);
        BlobEntry b = entry(4);
        // offsets 12, 12 + 137,225 = 137,237 (0x21815), + 131,081 = 268,318 (0x4181e)
        byte[] expected = concat(
                "04000000" + "0c000000" + "15180200" + "1e180400",
                "01" + "05000000",
                a.blob(),
                "04000200",
                a.cellProofs(),
                "00" + "05000000",
                new byte[131_072],
                "04000200",
                "01" + "05000000",
                b.blob(),
                "04000200",
                b.cellProofs());
        assertBody(expected, GetBlobs.Version.V3, new BlobEntry[] {a, null, b});
        assertBody(
                concat("04000000" + "04000000" + "01" + "05000000", a.blob(), "04000200", a.cellProofs()),
                GetBlobs.Version.V2,
                new BlobEntry[] {a});
    }

    @Test
    void v4PutsEachSelectedCellTheEntryHasInItsSlot() throws Exception {
        BlobEntry full = entry(5).withExtensionCells(pattern(131_072, 9));
        BlobEntry noExtension = entry(6);
        BlobEntry noCellProofs = new BlobEntry(entry(7).blob(), entry(7).commitment(), entry(7).blobProof(), null);
        CellIndices cells = CellIndices.of(hex("02000000000000000000000000000080")); // cells 1 and 127
        // full: cells 1 and 127; blob_cells 512 + 2 × 2,048 = 4,608 bytes, so proofs at 8 + 4,608 = 4,616 (0x1208);
        // slots 0 and 1 at 512, the others after cell 1 (+2,048 or +48)
        ByteArrayOutputStream f = new ByteArrayOutputStream();
        f.writeBytes(hex("01" + "05000000" + "08000000" + "08120000"));
        f.writeBytes(hex("00020000".repeat(2) + "000a0000".repeat(126)));
        f.write(full.blob(), 2048, 2048);
        f.write(full.extensionCells(), 63 * 2048, 2048);
        f.writeBytes(hex("00020000".repeat(2) + "30020000".repeat(126)));
        f.write(full.cellProofs(), 48, 48);
        f.write(full.cellProofs(), 127 * 48, 48);
        // no extension cells: cell 1 only; blob_cells 512 + 2,048, proofs at 2,568 (0xa08)
        ByteArrayOutputStream n = new ByteArrayOutputStream();
        n.writeBytes(hex("01" + "05000000" + "08000000" + "080a0000"));
        n.writeBytes(hex("00020000".repeat(2) + "000a0000".repeat(126)));
        n.write(noExtension.blob(), 2048, 2048);
        n.writeBytes(hex("00020000".repeat(2) + "30020000".repeat(126)));
        n.write(noExtension.cellProofs(), 48, 48);
        // no cell proofs (a V1-only blob), and not pooled: every slot empty, proofs at 520 (0x208)
        String empty = "05000000" + "08000000" + "08020000" + "00020000".repeat(256);
        int fullSize = f.size();
        int noExtensionSize = n.size();
        int emptySize = 1 + empty.length() / 2;
        String offsets = le(16)
                + le(16 + fullSize)
                + le(16 + fullSize + noExtensionSize)
                + le(16 + fullSize + noExtensionSize + emptySize);
        byte[] expected = concat("04000000" + offsets, f.toByteArray(), n.toByteArray(), "01" + empty, "00" + empty);
        assertBody(expected, GetBlobs.Version.V4, new BlobEntry[] {full, noExtension, noCellProofs, null}, cells);
    }

    @Test
    void closedInputProducesNothing() throws Exception {
        BlobsResponse response = response(GetBlobs.Version.V2, new BlobEntry[] {entry(8)}, null);
        var input = response.bodyInput(1024);
        input.close();
        assertThrows(IllegalStateException.class, () -> input.readChunk(ByteBufAllocator.DEFAULT));
    }

    private static void assertBody(byte[] expected, GetBlobs.Version version, BlobEntry[] entries) throws Exception {
        assertBody(expected, version, entries, version == GetBlobs.Version.V4 ? CellIndices.of(new byte[16]) : null);
    }

    private static void assertBody(byte[] expected, GetBlobs.Version version, BlobEntry[] entries, CellIndices cells)
            throws Exception {
        for (int chunkSize : CHUNK_SIZES) {
            BlobsResponse response = response(version, entries, cells);
            assertEquals(expected.length, response.contentLength());
            var input = response.bodyInput(chunkSize);
            assertEquals(0, response.refCnt());
            ByteArrayOutputStream body = new ByteArrayOutputStream();
            ByteBuf chunk;
            while ((chunk = input.readChunk(ByteBufAllocator.DEFAULT)) != null) {
                try {
                    assertTrue(chunk.isDirect());
                    assertTrue(
                            chunk.readableBytes() > 0 && chunk.readableBytes() <= chunkSize,
                            chunk.readableBytes() + " bytes");
                    byte[] bytes = new byte[chunk.readableBytes()];
                    chunk.readBytes(bytes);
                    body.writeBytes(bytes);
                    assertEquals(body.size(), input.progress());
                } finally {
                    chunk.release();
                }
            }
            assertTrue(input.isEndOfInput());
            assertNull(input.readChunk(ByteBufAllocator.DEFAULT));
            input.close();
            assertArrayEquals(expected, body.toByteArray(), version + " at chunks of " + chunkSize);
        }
    }

    private static BlobsResponse response(GetBlobs.Version version, BlobEntry[] entries, CellIndices cells) {
        return new BlobsResponse(version, entries, cells);
    }

    /** An entry whose every byte depends on {@code seed} and its index: a misplaced byte shows. */
    static BlobEntry entry(int seed) {
        return new BlobEntry(
                pattern(131_072, seed), pattern(48, seed + 100), pattern(48, seed + 200), pattern(6_144, seed + 300));
    }

    private static byte[] pattern(int size, int seed) {
        byte[] bytes = new byte[size];
        for (int i = 0; i < size; i++) {
            bytes[i] = (byte) (i * 31 + seed * 7 + (i >>> 8));
        }
        return bytes;
    }

    /** A {@code uint32} little-endian, in hex. */
    private static String le(int value) {
        return String.format("%02x%02x%02x%02x", value & 0xff, value >>> 8 & 0xff, value >>> 16 & 0xff, value >>> 24);
    }

    private static byte[] hex(String digits) {
        return HexFormat.of().parseHex(digits);
    }

    /** Hex strings and byte arrays, back to back. */
    private static byte[] concat(Object... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Object part : parts) {
            out.writeBytes(part instanceof String digits ? hex(digits) : (byte[]) part);
        }
        return out.toByteArray();
    }
}
