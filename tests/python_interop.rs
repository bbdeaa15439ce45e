#![cfg(feature = "rmcp")]
