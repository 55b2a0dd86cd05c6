/**
 * KZG commitments, proofs and their verification (EIP-4844, EIP-7594) through c-kzg-4844, with the mainnet trusted
 * setup loaded once, at server start ({@link io.hexstream.server.kzg.Kzg#load()}), and the generator of random blobs
 * with real proofs that fills a fresh pool.
 */
package io.hexstream.server.kzg;
