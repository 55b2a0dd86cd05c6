package io.hexstream.codec.testing;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hexstream.codec.json.JsonBody;
import io.hexstream.codec.json.JsonBodyBuilder;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Random blobs with their cell proofs, and the {@code engine_getBlobsV2} response built from them two ways: as a
 * hexstream {@link JsonBody}, and by Jackson from {@code String}s (the reference).
 */
public final class BlobFixtures {
    public static final int BLOB_SIZE = 131_072;
    public static final int CELL_PROOFS = 128;
    public static final int PROOF_SIZE = 48;

    private static final ObjectMapper MAPPER = new ObjectMapper();

    /** One blob and its 128 cell proofs of 48 bytes, back to back. */
    public record Entry(byte[] blob, byte[] proofs) {}

    private BlobFixtures() {}

    public static Entry randomEntry(Random random) {
        byte[] blob = new byte[BLOB_SIZE];
        byte[] proofs = new byte[CELL_PROOFS * PROOF_SIZE];
        random.nextBytes(blob);
        random.nextBytes(proofs);
        return new Entry(blob, proofs);
    }

    /** {@code count} entries, each {@code null} with probability {@code nullShare}. */
    public static List<Entry> randomEntries(Random random, int count, double nullShare) {
        List<Entry> entries = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            entries.add(random.nextDouble() < nullShare ? null : randomEntry(random));
        }
        return entries;
    }

    /** The response as a hexstream body: {@code {"jsonrpc":"2.0","id":…,"result":[…]}}. */
    public static JsonBody body(Object id, List<Entry> entries) {
        try (JsonBodyBuilder b = JsonBody.builder()) {
            b.beginObject()
                    .name("jsonrpc")
                    .string("2.0")
                    .name("id")
                    .raw(MAPPER.writeValueAsBytes(id))
                    .name("result")
                    .beginArray();
            for (Entry entry : entries) {
                if (entry == null) {
                    b.nullValue();
                } else {
                    b.beginObject()
                            .name("blob")
                            .hex(entry.blob())
                            .name("proofs")
                            .hexArray(entry.proofs(), 0, PROOF_SIZE, CELL_PROOFS)
                            .endObject();
                }
            }
            return b.endArray().endObject().build();
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The same response serialised by Jackson from Strings: the byte-for-byte reference. */
    public static byte[] jackson(Object id, List<Entry> entries) {
        HexFormat hex = HexFormat.of();
        List<Object> result = new ArrayList<>();
        for (Entry entry : entries) {
            if (entry == null) {
                result.add(null);
                continue;
            }
            List<String> proofs = new ArrayList<>();
            for (int i = 0; i < CELL_PROOFS; i++) {
                proofs.add("0x" + hex.formatHex(entry.proofs(), i * PROOF_SIZE, (i + 1) * PROOF_SIZE));
            }
            Map<String, Object> object = new LinkedHashMap<>();
            object.put("blob", "0x" + hex.formatHex(entry.blob()));
            object.put("proofs", proofs);
            result.add(object);
        }
        Map<String, Object> response = new LinkedHashMap<>();
        response.put("jsonrpc", "2.0");
        response.put("id", id);
        response.put("result", result);
        try {
            return MAPPER.writeValueAsBytes(response);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
