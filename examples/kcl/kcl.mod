[package]
name = "example"
edition = "v0.11.0"
version = "0.0.1"

[dependencies]
myks = "0.1.0"
