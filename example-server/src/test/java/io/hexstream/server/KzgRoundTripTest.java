package io.hexstream.server;

import static io.hexstream.server.testing.EngineServerFixture.hashParams;
import static io.hexstream.server.testing.EngineServerFixture.request;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import ethereum.ckzg4844.CKZG4844JNI;
import io.hexstream.client.VersionedHash;
import io.hexstream.codec.HexDecoder;
import io.hexstream.server.engine.Fork;
import io.hexstream.server.kzg.Kzg;
import io.hexstream.server.testing.EngineServerFixture;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a consensus client would check: every served blob's commitment, versioned hash and cell proofs. */
class KzgRoundTripTest {

    @Test
    void everyGeneratedBlobVerifiesAsServed() {
        try (EngineServerFixture server = EngineServerFixture.start(Fork.OSAKA)) {
            List<VersionedHash> hashes = server.hashes();
            assertEquals(EngineServerFixture.GENERATED, hashes.size());
            JsonNode result = server.call(request(1, "engine_getBlobsV2", hashParams(hashes)))
                    .get("result");
            for (int i = 0; i < hashes.size(); i++) {
                byte[] blob = HexDecoder.decode(result.get(i).get("blob").asText(), 131_072);
                byte[] proofs = new byte[128 * 48];
                for (int p = 0; p < 128; p++) {
                    byte[] proof =
                            HexDecoder.decode(result.get(i).get("proofs").get(p).asText(), 48);
                    System.arraycopy(proof, 0, proofs, p * 48, 48);
                }
                byte[] commitment = CKZG4844JNI.blobToKzgCommitment(blob);
                assertEquals(hashes.get(i), VersionedHash.ofCommitment(commitment), "blob " + i);
                assertTrue(Kzg.verifyCellProofs(blob, commitment, proofs), "cell proofs of blob " + i);
                proofs[77] ^= 1;
                assertTrue(!Kzg.verifyCellProofs(blob, commitment, proofs), "a flipped bit is caught");
            }
        }
    }
}
