package io.hexstream.server.rpc;

import io.hexstream.codec.Hex;
import io.hexstream.codec.HexFormatException;
import io.hexstream.server.pool.BlobEntry;
import io.hexstream.server.pool.BlobPool;
import io.hexstream.server.pool.VersionedHash;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Engine API methods served: {@code engine_getBlobsV1} (execution-apis {@code cancun.md}),
 * {@code engine_getBlobsV2} and {@code V3} ({@code osaka.md}) and {@code engine_exchangeCapabilities}
 * ({@code common.md}), over a {@link BlobPool}. Thread-safe.
 */
public final class EngineApi {
    private static final Logger LOG = LoggerFactory.getLogger(EngineApi.class);

    /** A method: params in, result out, or an {@link RpcException} with the spec's code. */
    @FunctionalInterface
    public interface Method {
        RpcResult call(List<Object> params) throws RpcException;
    }

    private final BlobPool pool;
    private final Fork fork;
    private final int maxBlobsPerRequest;
    private final Map<String, Method> methods;

    public EngineApi(BlobPool pool, Fork fork, int maxBlobsPerRequest, Map<String, Method> extraMethods) {
        this.pool = pool;
        this.fork = fork;
        this.maxBlobsPerRequest = maxBlobsPerRequest;
        Map<String, Method> all = new java.util.LinkedHashMap<>();
        all.put("engine_getBlobsV1", this::getBlobsV1);
        all.put("engine_getBlobsV2", params -> getBlobsV2(params, false));
        all.put("engine_getBlobsV3", params -> getBlobsV2(params, true));
        all.put("engine_exchangeCapabilities", this::exchangeCapabilities);
        all.putAll(extraMethods);
        this.methods = Map.copyOf(all);
    }

    public EngineApi(BlobPool pool, Fork fork, int maxBlobsPerRequest) {
        this(pool, fork, maxBlobsPerRequest, Map.of());
    }

    /** Replies to each request that is not a notification, in order. */
    public List<RpcReply> execute(List<RpcRequest> requests) {
        List<RpcReply> replies = new ArrayList<>(requests.size());
        for (RpcRequest request : requests) {
            RpcReply reply = execute(request);
            if (!request.isNotification()) {
                replies.add(reply);
            }
        }
        return replies;
    }

    private RpcReply execute(RpcRequest request) {
        if (request.invalid() != null) {
            return RpcReply.failure(request.id(), RpcError.INVALID_REQUEST, request.invalid());
        }
        Method method = methods.get(request.method());
        if (method == null) {
            return RpcReply.failure(request.id(), RpcError.METHOD_NOT_FOUND, request.method());
        }
        try {
            return RpcReply.success(request.id(), method.call(request.params()));
        } catch (RpcException e) {
            return RpcReply.failure(request.id(), e.error(), e.getMessage());
        } catch (RuntimeException e) {
            LOG.error("{} failed", request.method(), e);
            return RpcReply.failure(request.id(), RpcError.INTERNAL_ERROR, null);
        }
    }

    private RpcResult getBlobsV1(List<Object> params) throws RpcException {
        BlobEntry[] entries = lookup(params, Fork.PRAGUE);
        for (int i = 0; i < entries.length; i++) {
            if (entries[i] != null && entries[i].blobProof() == null) {
                entries[i] = null;
            }
        }
        return new RpcResult.BlobsAndProofsV1(Arrays.asList(entries));
    }

    /** V2 answers {@code null} as a whole if any blob is missing; V3 ({@code partial}) per position. */
    private RpcResult getBlobsV2(List<Object> params, boolean partial) throws RpcException {
        BlobEntry[] entries = lookup(params, Fork.OSAKA);
        for (int i = 0; i < entries.length; i++) {
            if (entries[i] == null || entries[i].cellProofs() == null) {
                if (!partial) {
                    return new RpcResult.BlobsAndProofsV2(null);
                }
                entries[i] = null;
            }
        }
        return new RpcResult.BlobsAndProofsV2(Arrays.asList(entries));
    }

    private RpcResult exchangeCapabilities(List<Object> params) throws RpcException {
        stringArray(params);
        List<String> served = fork == Fork.PRAGUE ? List.of("engine_getBlobsV1")
                : List.of("engine_getBlobsV2", "engine_getBlobsV3");
        return new RpcResult.Strings(served);
    }

    /** Params {@code [[hash, …]]}, checked, then looked up: {@code null} where missing. */
    private BlobEntry[] lookup(List<Object> params, Fork needed) throws RpcException {
        List<String> texts = stringArray(params);
        VersionedHash[] hashes = new VersionedHash[texts.size()];
        for (int i = 0; i < hashes.length; i++) {
            try {
                hashes[i] = VersionedHash.wrap(Hex.decode(texts.get(i), VersionedHash.LENGTH));
            } catch (HexFormatException e) {
                throw new RpcException(RpcError.INVALID_PARAMS, "versioned hash " + i + ": " + e.getMessage());
            }
        }
        if (hashes.length > maxBlobsPerRequest) {
            throw new RpcException(RpcError.TOO_LARGE_REQUEST,
                    hashes.length + " versioned hashes, at most " + maxBlobsPerRequest);
        }
        if (fork != needed) {
            throw new RpcException(RpcError.UNSUPPORTED_FORK, "serving " + fork.name().toLowerCase());
        }
        return pool.getAll(hashes);
    }

    /** The one param, an array of strings. */
    @SuppressWarnings("unchecked")
    private static List<String> stringArray(List<Object> params) throws RpcException {
        if (params.size() != 1 || !(params.get(0) instanceof List)) {
            throw new RpcException(RpcError.INVALID_PARAMS, "expected one param, an array of strings");
        }
        return (List<String>) params.get(0);
    }
}
