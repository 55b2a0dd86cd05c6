package io.hexstream.server.engine;

import io.hexstream.codec.HexDecoder;
import io.hexstream.codec.HexFormatException;
import io.hexstream.codec.json.JsonBodyBuilder;
import io.hexstream.server.blob.Origin;
import io.hexstream.server.metrics.Tally;
import io.hexstream.server.rpc.Params;
import io.hexstream.server.rpc.RpcError;
import io.hexstream.server.rpc.RpcException;
import io.hexstream.server.rpc.RpcMethod;
import io.hexstream.server.rpc.RpcResult;
import io.hexstream.server.tx.TransactionIngest;
import io.hexstream.server.tx.TransactionRefusedException;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code eth_sendRawTransaction} for blob transactions: params {@code ["0x…"]}, the signed type-3 transaction in
 * network form (EIP-4844 or EIP-7594); result its hash, {@code DATA} of 32 bytes. Errors: {@code -32602} for input that
 * is not hex or not a decodable transaction, {@code -32000} naming the failed check otherwise, or saying it could not
 * be stored durably (then it is not pooled: nothing is acknowledged that a crash could lose), the same text in
 * {@code data.err}; through a port without JWT also when the pool's limits on such transactions refuse it (its sender
 * has {@link io.hexstream.server.pool.BlobPool#MAX_TRANSACTIONS_PER_SENDER} pooled, or it does not fit in their share
 * of the pool). {@link #blocking() Blocks} (KZG, fsync): the dispatcher runs it on the ingest executor.
 */
public final class SendRawTransaction implements RpcMethod {
    private static final Logger LOG = LoggerFactory.getLogger(SendRawTransaction.class);

    private final TransactionIngest ingest;
    private final Origin origin;

    /** Takes transactions in through {@code ingest} as having come through a port of {@code origin}. */
    public SendRawTransaction(TransactionIngest ingest, Origin origin) {
        this.ingest = ingest;
        this.origin = origin;
    }

    /** The result: the transaction's hash, {@code DATA}. */
    private record TransactionHash(byte[] hash) implements RpcResult {
        @Override
        public void write(JsonBodyBuilder b) {
            b.hex(hash);
        }

        @Override
        public Tally tally() {
            return Tally.NONE;
        }
    }

    @Override
    public String name() {
        return "eth_sendRawTransaction";
    }

    @Override
    public boolean blocking() {
        return true;
    }

    @Override
    public RpcResult call(Params params) throws RpcException {
        String text = params.oneString("the signed transaction as DATA");
        byte[] raw;
        try {
            raw = HexDecoder.decode(text);
        } catch (HexFormatException e) {
            throw new RpcException(RpcError.INVALID_PARAMS, "transaction: " + e.getMessage());
        }
        try {
            return new TransactionHash(ingest.accept(raw, origin));
        } catch (TransactionRefusedException e) {
            LOG.debug("refused a transaction: {}", e.getMessage());
            throw new RpcException(e.undecodable() ? RpcError.INVALID_PARAMS : RpcError.SERVER_ERROR, e.getMessage());
        } catch (IOException e) {
            LOG.error("could not store a transaction", e);
            throw new RpcException(
                    RpcError.SERVER_ERROR, "transaction not stored durably, not pooled: " + e.getMessage());
        }
    }
}
