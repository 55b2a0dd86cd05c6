package io.hexstream.server.engine;

import io.hexstream.codec.json.JsonBodyBuilder;
import io.hexstream.server.metrics.Tally;
import io.hexstream.server.rpc.Params;
import io.hexstream.server.rpc.RpcException;
import io.hexstream.server.rpc.RpcMethod;
import io.hexstream.server.rpc.RpcResult;
import java.util.List;

/**
 * {@code engine_exchangeCapabilities} (execution-apis {@code common.md}, "Capabilities"): params {@code [[method, …]]},
 * the consensus client's methods (not otherwise used); result the getBlobs methods served under the server's fork.
 */
public final class ExchangeCapabilities implements RpcMethod {
    private final Served served;

    public ExchangeCapabilities(Fork fork) {
        this.served = new Served(
                fork == Fork.PRAGUE
                        ? List.of(GetBlobs.Version.V1.methodName())
                        : List.of(
                                GetBlobs.Version.V2.methodName(),
                                GetBlobs.Version.V3.methodName(),
                                GetBlobs.Version.V4.methodName()));
    }

    /** The result: the methods served, an array of strings. */
    private record Served(List<String> methods) implements RpcResult {
        @Override
        public void write(JsonBodyBuilder b) {
            b.beginArray();
            methods.forEach(b::string);
            b.endArray();
        }

        @Override
        public Tally tally() {
            return Tally.NONE;
        }
    }

    @Override
    public String name() {
        return "engine_exchangeCapabilities";
    }

    @Override
    public RpcResult call(Params params) throws RpcException {
        params.oneStringArray();
        return served;
    }
}
