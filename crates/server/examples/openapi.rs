//! Prints the API's description, as `GET /api/v1/openapi.json` serves it:
//! `cargo run -p granary-server --example openapi > openapi.json`.

fn main() {
    println!("{}", granary_server::openapi::text());
}
