"""Training and decoding: the generator interface, shared layers, the decoder, the LightningModule
and checkpoint loading."""
