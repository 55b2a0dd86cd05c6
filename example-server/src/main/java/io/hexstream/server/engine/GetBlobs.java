package io.hexstream.server.engine;

import io.hexstream.client.CellIndices;
import io.hexstream.client.VersionedHash;
import io.hexstream.codec.HexFormatException;
import io.hexstream.server.cache.HexCache;
import io.hexstream.server.metrics.ServerMetrics;
import io.hexstream.server.metrics.Tally;
import io.hexstream.server.pool.DurableBlobPool;
import io.hexstream.server.rpc.DecodedArray;
import io.hexstream.server.rpc.ElementReader;
import io.hexstream.server.rpc.Params;
import io.hexstream.server.rpc.RpcError;
import io.hexstream.server.rpc.RpcException;
import java.util.Arrays;

/**
 * {@code engine_getBlobsV1} (execution-apis {@code cancun.md}), {@code V2} and {@code V3} ({@code osaka.md}): params
 * {@code [[versioned hash, …]]}, blobs from the pool; {@code V4} ({@code amsterdam.md}): params {@code [[versioned
 * hash, …], indices_bitarray]}, the selected cells of each blob ({@link CellIndices}). The hashes are bounded and
 * decoded as the request is parsed ({@link #elements()}: none past the bound is read, each decoded from the parser's
 * text straight into its lookup key); the call then answers in this order: the shape ({@code -32602}), the count
 * ({@code -38004 Too large request} above {@code maxBlobsPerRequest}), the fork ({@code -38005 Unsupported fork}); then
 * V4's {@code indices_bitarray} ({@code -32602} unless 16 bytes of {@code DATA}); then the first hash that did not
 * decode ({@code -32602} naming it); then the {@link BlobLookup}. The result is a {@link BlobsResult} of the version's
 * shape ({@link BlobAndProofV1}, {@link BlobAndProofV2}, {@link BlobCellsAndProofsV1}), written from the hex cache when
 * it holds every entry; it tallies the hashes asked for and the blobs returned, for the access log.
 */
public final class GetBlobs implements ForkScopedMethod {

    /** The four versions: the fork each is served under and what it returns for a missing blob. */
    public enum Version {
        /** {@code BlobAndProofV1} per hash, {@code null} where missing or pooled without a blob proof. */
        V1(Fork.PRAGUE),
        /** {@code BlobAndProofV2} per hash, or {@code null} as a whole if any is missing. */
        V2(Fork.OSAKA),
        /** {@code BlobAndProofV2} per hash, {@code null} where missing. */
        V3(Fork.OSAKA),
        /**
         * {@code BlobCellsAndProofsV1} per hash, {@code null} where missing; an Amsterdam method, served under Osaka
         * too, as geth and reth serve it.
         */
        V4(Fork.OSAKA);

        private final Fork fork;

        Version(Fork fork) {
            this.fork = fork;
        }

        /** Whether {@code served} serves this version: V1 only before Osaka, the others from their fork on. */
        public boolean servedUnder(Fork served) {
            return this == V1 ? served == fork : served.atLeast(fork);
        }

        /** The method's name, {@code engine_getBlobsV1} to {@code V4}. */
        public String methodName() {
            return "engine_getBlobs" + name();
        }
    }

    private static final String V4_PARAMS = "two params, an array of versioned hashes and indices_bitarray";

    private final Version version;
    private final BlobLookup lookup;
    private final Fork served;
    private final int maxBlobsPerRequest;
    private final HexCache cache;
    private final ElementReader hashes;

    /**
     * @param served the fork the server serves
     * @param maxBlobsPerRequest the most hashes a call may ask for ({@code --max-blobs-per-request})
     * @param metrics told, per call that gets a result, the hashes asked for and how many of them this version can
     *     serve
     * @param cache the hex cache ({@code --hex-cache-mib}), or {@code null} for none
     */
    public GetBlobs(
            Version version,
            DurableBlobPool pool,
            Fork served,
            int maxBlobsPerRequest,
            ServerMetrics metrics,
            HexCache cache) {
        this.version = version;
        this.lookup = new BlobLookup(pool, metrics);
        this.served = served;
        this.maxBlobsPerRequest = maxBlobsPerRequest;
        this.cache = cache;
        this.hashes = new HashReader(maxBlobsPerRequest);
    }

    /**
     * The versioned hashes param: at most {@code maxBlobsPerRequest} ({@code -38004 Too large request} at the one more,
     * execution-apis {@code osaka.md}), each decoded from its text straight into its key ({@code -32602} naming the
     * first bad one).
     */
    private record HashReader(int maxElements) implements ElementReader {
        @Override
        public RpcException tooMany() {
            return new RpcException(RpcError.TOO_LARGE_REQUEST, "more than " + maxElements + " versioned hashes");
        }

        @Override
        public Object decode(char[] text, int offset, int length, int index) throws RpcException {
            try {
                return VersionedHash.decode(text, offset, length);
            } catch (HexFormatException e) {
                throw new RpcException(RpcError.INVALID_PARAMS, "versioned hash " + index + ": " + e.getMessage());
            }
        }
    }

    @Override
    public String name() {
        return version.methodName();
    }

    /** Whether the server's fork serves this version ({@link Version#servedUnder}). */
    @Override
    public boolean servedUnderFork() {
        return version.servedUnder(served);
    }

    /** The versioned hashes, bounded and decoded into their lookup keys as the request is parsed. */
    @Override
    public ElementReader elements() {
        return hashes;
    }

    @Override
    public BlobsResult call(Params params) throws RpcException {
        boolean v4 = version == Version.V4;
        DecodedArray decoded = v4 ? params.decodedArray(0, 2, V4_PARAMS) : params.oneDecodedArray();
        String bitarray = v4 ? params.string(1, 2, V4_PARAMS) : null;
        decoded.checkCount();
        if (!servedUnderFork()) {
            throw new RpcException(
                    RpcError.UNSUPPORTED_FORK, "serving " + served.name().toLowerCase());
        }
        CellIndices selected = v4 ? cellIndices(bitarray) : null;
        VersionedHash[] hashes = decoded.values(VersionedHash[].class);
        BlobLookup.Found found = lookup.lookUp(version, hashes, name());
        if (version == Version.V2 && !found.all()) {
            return new BlobsResult(null, BlobAndProofV2.SHAPE, cache, new Tally(hashes.length, 0));
        }
        BlobShape shape = v4
                ? new BlobCellsAndProofsV1(selected)
                : version == Version.V1 ? BlobAndProofV1.SHAPE : BlobAndProofV2.SHAPE;
        return new BlobsResult(
                Arrays.asList(found.entries()), shape, cache, new Tally(hashes.length, found.available()));
    }

    /** V4's {@code indices_bitarray}; {@code -32602} unless 16 bytes of {@code DATA}. */
    private static CellIndices cellIndices(String bitarray) throws RpcException {
        try {
            return CellIndices.decode(bitarray);
        } catch (HexFormatException e) {
            throw new RpcException(
                    RpcError.INVALID_PARAMS,
                    "indices_bitarray is not " + CellIndices.BITARRAY_SIZE + " bytes of DATA: " + e.getMessage());
        }
    }
}
