package io.hexstream.server.engine;

import io.hexstream.codec.json.JsonBodyBuilder;
import io.hexstream.server.metrics.Tally;
import io.hexstream.server.rpc.Params;
import io.hexstream.server.rpc.RpcException;
import io.hexstream.server.rpc.RpcMethod;
import io.hexstream.server.rpc.RpcResult;
import java.util.List;

/**
 * {@code engine_exchangeCapabilities} (execution-apis {@code common.md}, "engine_exchangeCapabilities"): params
 * {@code [[method, …]]}, the consensus client's methods (not otherwise used); result the {@code engine_} methods of the
 * method table that the server's fork serves (a {@link ForkScopedMethod} only if
 * {@link ForkScopedMethod#servedUnderFork}), in the table's order, itself left out ("MUST NOT be returned").
 */
public final class ExchangeCapabilities implements RpcMethod {
    /** The method's name. */
    public static final String NAME = "engine_exchangeCapabilities";

    private final Served served;

    /** @param table the other methods of the method table (a method named {@link #NAME} there is left out too) */
    public ExchangeCapabilities(List<? extends RpcMethod> table) {
        this.served = new Served(table.stream()
                .filter(m -> m.name().startsWith("engine_") && !m.name().equals(NAME))
                .filter(m -> !(m instanceof ForkScopedMethod scoped) || scoped.servedUnderFork())
                .map(RpcMethod::name)
                .toList());
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
        return NAME;
    }

    @Override
    public RpcResult call(Params params) throws RpcException {
        params.oneStringArray();
        return served;
    }
}
