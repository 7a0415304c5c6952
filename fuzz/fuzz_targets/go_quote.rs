#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| kw_fuzz::checks::go_quote(data));
