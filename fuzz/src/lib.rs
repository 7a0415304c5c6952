//! The fuzz targets' properties, one function per target. The same file is compiled into the
//! integration tests (`tests/it/fuzz_corpus.rs`), which replay the kept corpus on stable Rust.

pub mod checks;
