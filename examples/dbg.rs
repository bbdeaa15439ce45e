fn main() {
    let h = "1жZ[Z";
    for p in [
        r"1(?:[\x{A}\p{L}]Z)|(?-u:\B)",
        r"1жZ|(?-u:\B)",
        r"1ж|(?-u:\B)",
        r"(?:1жZ)|(?-u:\B)",
        r"1жZ|\B",
    ] {
        let re = regex::Regex::new(p).unwrap();
        println!("{p}: is_match={} find={:?}", re.is_match(h), re.find(h));
    }
}
