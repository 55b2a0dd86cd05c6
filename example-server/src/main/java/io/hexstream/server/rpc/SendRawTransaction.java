package io.hexstream.server.rpc;

import io.hexstream.codec.Hex;
import io.hexstream.codec.HexFormatException;
import io.hexstream.server.tx.TransactionIngest;
import io.hexstream.server.tx.TransactionRefusedException;
import java.io.IOException;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code eth_sendRawTransaction} for blob transactions: params {@code ["0x…"]}, the signed type-3
 * transaction in network form (EIP-4844 or EIP-7594); result its hash, {@code DATA} of 32 bytes.
 * Errors: {@code -32602} for input that is not hex or not a decodable transaction, {@code -32000}
 * naming the failed check otherwise (the same text in {@code data.err}), {@code -32603} if it cannot be
 * written to disk.
 */
public final class SendRawTransaction implements EngineApi.Method {
    public static final String NAME = "eth_sendRawTransaction";
    private static final Logger LOG = LoggerFactory.getLogger(SendRawTransaction.class);

    private final TransactionIngest ingest;

    public SendRawTransaction(TransactionIngest ingest) {
        this.ingest = ingest;
    }

    @Override
    public RpcResult call(List<Object> params) throws RpcException {
        if (params.size() != 1 || !(params.get(0) instanceof String text)) {
            throw new RpcException(RpcError.INVALID_PARAMS, "expected one param, the signed transaction as DATA");
        }
        byte[] raw;
        try {
            raw = Hex.decode(text);
        } catch (HexFormatException e) {
            throw new RpcException(RpcError.INVALID_PARAMS, "transaction: " + e.getMessage());
        }
        try {
            return new RpcResult.Data(ingest.accept(raw));
        } catch (TransactionRefusedException e) {
            LOG.debug("refused a transaction: {}", e.getMessage());
            throw new RpcException(e.undecodable() ? RpcError.INVALID_PARAMS : RpcError.SERVER_ERROR, e.getMessage());
        } catch (IOException e) {
            LOG.error("could not store a transaction", e);
            throw new RpcException(RpcError.INTERNAL_ERROR, "could not store the transaction: " + e.getMessage());
        }
    }
}
