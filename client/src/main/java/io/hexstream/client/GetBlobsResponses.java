package io.hexstream.client;

import io.hexstream.codec.json.JsonHexReader;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Objects;
import java.util.function.BiFunction;

/**
 * Reads the body of a JSON-RPC response to {@code engine_getBlobsV1} to {@code V4} from a blocking {@link InputStream},
 * the shape an OkHttp {@code ResponseBody.byteStream()}, a JDK {@code HttpClient}'s
 * {@code BodyHandlers.ofInputStream()} or a servlet holds. Each entry of the result is handed to the caller's function
 * as soon as its closing brace is read, its hex already decoded into new {@code byte[]}s of their exact size; the
 * answers come back as the result's list.
 *
 * <p>The response is JSON-RPC 2.0 (section 5): {@code "jsonrpc": "2.0"}, any {@code id} (not checked), and either
 * {@code result} or {@code error}. Members in any order, members not named here skipped whatever their value, any
 * whitespace, and JSON escapes anywhere (RFC 8259). Hex values are the Engine API's {@code DATA}: {@code 0x}, then
 * digits of either case, two per byte.
 *
 * <p>Reading: the stream is read in chunks of at most {@value #CHUNK_SIZE} bytes into one array per call (no body is
 * held whole), each chunk decoded as soon as it is read, to the stream's end: only whitespace may follow the document.
 * The stream is not closed (its owner closes it). Hex digits are decoded by the codec's kernel
 * ({@link io.hexstream.codec.HexDecoder#decodeDigits}: SIMD lanes where the JVM runs with {@code --add-modules
 * jdk.incubator.vector}, else a table). Besides the {@code byte[]}s handed over, a call allocates the chunk array, the
 * reader's bounded state, one array of references per entry's array and the result's list; nothing per value.
 *
 * <p>Faults: every fault of the response is an {@link IOException}: a JSON-RPC error object a {@link RpcErrorException}
 * (once the whole body has been read); anything else that is not the method's response a
 * {@link GetBlobsResponseException} naming the path and the byte where it was found: malformed JSON, a hex value not of
 * its size, a missing or duplicate member, a wrong {@code jsonrpc}, an entry where the method has none ({@code null} in
 * a getBlobsV2 result), more entries than {@code hashCount} (refused when the first one over begins, without reading
 * further) or fewer, the end of the stream inside the document. The stream's own {@code IOException}s pass through. An
 * exception thrown by the entry function passes through unchanged and ends the reading; entries handed over before a
 * fault stay the caller's.
 *
 * <p>Thread-safe: a call keeps all its state to itself.
 */
public final class GetBlobsResponses {
    /** The most bytes read from the stream at a time, and the size of the array each call reads into. */
    public static final int CHUNK_SIZE = 65_536;

    private GetBlobsResponses() {}

    /**
     * Reads a response to {@code engine_getBlobsV1} (execution-apis {@code src/engine/cancun.md}): a result of
     * {@code hashCount} entries, each a {@code BlobAndProofV1} or {@code null} for a blob the server does not have.
     *
     * @param body the response body, read to its end and not closed
     * @param hashCount the versioned hashes the request asked for: the entries the result must have
     * @param entry called once per {@code BlobAndProofV1}, in order, with its blob (131,072 bytes) and its proof (48
     *     bytes), new arrays that become the function's
     * @return the function's answers, one per entry, in order, with {@code null} where the entry is {@code null}; or
     *     {@code null} for a {@code null} result
     * @throws RpcErrorException if the response is a JSON-RPC error
     * @throws GetBlobsResponseException if the body is not a getBlobsV1 response for {@code hashCount} hashes
     * @throws IOException if reading the stream fails
     */
    public static <T> List<T> readV1(InputStream body, int hashCount, BiFunction<byte[], byte[], T> entry)
            throws IOException {
        return read(body, hashCount, BlobsMethod.V1, entry);
    }

    /**
     * Reads a response to {@code engine_getBlobsV2} (execution-apis {@code src/engine/osaka.md}): a result of
     * {@code hashCount} {@code BlobAndProofV2} entries (no {@code null} among them: the method answers all or a
     * {@code null} result).
     *
     * @param body the response body, read to its end and not closed
     * @param hashCount the versioned hashes the request asked for: the entries the result must have
     * @param entry called once per {@code BlobAndProofV2}, in order, as soon as it is read, with its blob (131,072
     *     bytes) and its 128 cell proofs (48 bytes each, in cell order) as a fixed-size list; arrays and list are new
     *     and become the function's
     * @return the function's answers, one per entry, in order; or {@code null} for a {@code null} result
     * @throws RpcErrorException if the response is a JSON-RPC error
     * @throws GetBlobsResponseException if the body is not a getBlobsV2 response for {@code hashCount} hashes
     * @throws IOException if reading the stream fails
     */
    public static <T> List<T> readV2(InputStream body, int hashCount, BiFunction<byte[], List<byte[]>, T> entry)
            throws IOException {
        return read(body, hashCount, BlobsMethod.V2, entry);
    }

    /**
     * Reads a response to {@code engine_getBlobsV3} (execution-apis {@code src/engine/osaka.md}): as
     * {@link #readV2(InputStream, int, BiFunction)}, but an entry may be {@code null} for a blob the server does not
     * have; the answers hold {@code null} there.
     *
     * @throws RpcErrorException if the response is a JSON-RPC error
     * @throws GetBlobsResponseException if the body is not a getBlobsV3 response for {@code hashCount} hashes
     * @throws IOException if reading the stream fails
     */
    public static <T> List<T> readV3(InputStream body, int hashCount, BiFunction<byte[], List<byte[]>, T> entry)
            throws IOException {
        return read(body, hashCount, BlobsMethod.V3, entry);
    }

    /**
     * Reads a response to {@code engine_getBlobsV4} (execution-apis {@code src/engine/amsterdam.md}): a result of
     * {@code hashCount} entries, each a {@code BlobCellsAndProofsV1} or {@code null} for a blob the server does not
     * have. An entry holds the cells the request's {@code indices_bitarray} asked for (at most 128, in index order, the
     * same count in every entry) and their proofs; a cell the server lacks is {@code null}, and so is its proof.
     *
     * @param body the response body, read to its end and not closed
     * @param hashCount the versioned hashes the request asked for: the entries the result must have
     * @param entry called once per {@code BlobCellsAndProofsV1}, in order, as soon as it is read, with its cells (2,048
     *     bytes each, or {@code null} where missing) and their proofs (48 bytes each, or {@code null} at the same
     *     places), as fixed-size lists of equal length; arrays and lists are new and become the function's
     * @return the function's answers, one per entry, in order, with {@code null} where the entry is {@code null}; or
     *     {@code null} for a {@code null} result
     * @throws RpcErrorException if the response is a JSON-RPC error
     * @throws GetBlobsResponseException if the body is not a getBlobsV4 response for {@code hashCount} hashes
     * @throws IOException if reading the stream fails
     */
    public static <T> List<T> readV4(InputStream body, int hashCount, BiFunction<List<byte[]>, List<byte[]>, T> entry)
            throws IOException {
        return read(body, hashCount, BlobsMethod.V4, entry);
    }

    @SuppressWarnings("unchecked") // each public method passes the function its method's parts are typed for
    private static <T> List<T> read(InputStream body, int hashCount, BlobsMethod method, BiFunction<?, ?, T> entry)
            throws IOException {
        Objects.requireNonNull(body, "body");
        Objects.requireNonNull(entry, "entry");
        if (hashCount < 0) {
            throw new IllegalArgumentException("hashCount " + hashCount);
        }
        ArrayEntries<T> entries = new ArrayEntries<>(method, hashCount, (BiFunction<Object, Object, T>) entry);
        JsonRpcResponseListener response =
                new JsonRpcResponseListener(new BlobsResultListener(method, hashCount, -1, entries));
        JsonHexReader reader = new JsonHexReader(response);
        byte[] bytes = new byte[CHUNK_SIZE];
        ByteBuf chunk = Unpooled.wrappedBuffer(bytes);
        try {
            for (int n; (n = body.read(bytes, 0, CHUNK_SIZE)) >= 0; ) {
                reader.feed(chunk.setIndex(0, n));
            }
            reader.end();
        } catch (RuntimeException e) {
            GetBlobsResponseException fault = ResponseFault.of(e, reader);
            if (fault != null) {
                throw fault;
            }
            throw e;
        } finally {
            chunk.release();
        }
        if (response.isError()) {
            throw response.error();
        }
        return entries.entries();
    }
}
