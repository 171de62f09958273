//! github output (being written).

use std::io::{self, Write};

use super::Report;

pub fn render(_report: &Report, _out: &mut dyn Write) -> io::Result<()> {
    Err(io::Error::other("the github format is not available yet"))
}
