//! `completions SHELL` and `man`: files for shells and `man`, generated from the command line
//! definition so they never fall behind it.

use clap::CommandFactory;
use clap_complete::aot::{Shell, generate};

use super::{Cli, Outcome, write_stdout};

/// The completion script for `shell`. `--profile` takes a file or `builtin:NAME`, and the
/// generated scripts complete an argument either from a list or as a file, never both: zsh
/// and fish are given the built-in names beside the files. Bash splits words at `:`, so it
/// cannot complete `builtin:NAME` as one word; it, Elvish and PowerShell complete files.
pub(crate) fn completions(shell: Shell) -> Result<Outcome, String> {
    let mut buf = Vec::new();
    generate(shell, &mut Cli::command(), "skill-audit", &mut buf);
    let script = String::from_utf8_lossy(&buf);
    let names = crate::profile::builtin::names();
    let script = match shell {
        Shell::Zsh => zsh_profiles(&script, &names),
        Shell::Fish => fish_profiles(&script, &names),
        Shell::Bash => bash_subcommands(&script),
        _ => script.into_owned(),
    };
    write_stdout(script.as_bytes())?;
    Ok(Outcome::Clean)
}

/// Does this line of a generated script complete `-p`/`--profile`?
fn completes_profile(line: &str, shell: Shell) -> bool {
    match shell {
        Shell::Zsh => {
            let spec = line.trim_start().trim_start_matches(['\'', '*']);
            (spec.starts_with("-p+[") || spec.starts_with("--profile=["))
                && line.trim_end().ends_with(":FILE:_files' \\")
        }
        _ => line.contains(" -s p -l profile ") && line.ends_with(" -r -F"),
    }
}

/// bash: the generator names a subcommand's state `skill__audit__subcmd__X` where it walks the
/// words but `skill__subcmd__audit__subcmd__X` where it completes, for a program name with a
/// `-`, so nothing after a subcommand completes. One spelling for both.
fn bash_subcommands(script: &str) -> String {
    script.replace("skill__subcmd__audit__subcmd__", "skill__audit__subcmd__")
}

/// zsh: `--profile` completes with a function that offers files and the built-in names.
fn zsh_profiles(script: &str, names: &[String]) -> String {
    let mut out = String::with_capacity(script.len() + 1024);
    for line in script.lines() {
        if completes_profile(line, Shell::Zsh) {
            out.push_str(&line.replacen(":FILE:_files'", ":FILE:_skill-audit__profile'", 1));
        } else {
            out.push_str(line);
        }
        out.push('\n');
        if line == "autoload -U is-at-least" {
            let list: Vec<String> = names.iter().map(|n| n.replace(':', "\\:")).collect();
            out.push_str(&format!(
                "\n(( $+functions[_skill-audit__profile] )) ||\n_skill-audit__profile() {{\n    _alternative 'files:profile file:_files' 'builtins:built-in profile:({})'\n}}\n",
                list.join(" ")
            ));
        }
    }
    out
}

/// fish: a second completion of `--profile`, which adds the built-in names to the files the
/// first one offers.
fn fish_profiles(script: &str, names: &[String]) -> String {
    let mut out = String::with_capacity(script.len() + 1024);
    for line in script.lines() {
        out.push_str(line);
        out.push('\n');
        if completes_profile(line, Shell::Fish) {
            let head = line.trim_end_matches(" -r -F");
            out.push_str(&format!("{head} -r -a \"{}\"\n", names.join(" ")));
        }
    }
    out
}

/// The manual page, as roff.
pub(crate) fn man() -> Result<Outcome, String> {
    let mut buf = Vec::new();
    let cli = Cli::command();
    clap_mangen::Man::new(cli.clone())
        .render(&mut buf)
        .map_err(|e| format!("cannot render the manual page: {e}"))?;
    write_stdout(one_page(&String::from_utf8_lossy(&buf), &cli).as_bytes())?;
    Ok(Outcome::Clean)
}

/// The generator lists each command as a page of its own (`skill-audit-merge(1)`), and there is
/// one page: commands are named as typed, and `help COMMAND` has their options.
fn one_page(page: &str, cli: &clap::Command) -> String {
    let mut page = page.to_owned();
    // `help` is added by the parser, and is not among the subcommands until it runs.
    let names = cli.get_subcommands().map(|s| s.get_name()).chain(["help"]);
    for name in names {
        let name = name.replace('-', "\\-");
        page = page.replace(
            &format!("skill\\-audit\\-{name}(1)"),
            &format!("skill\\-audit {name}"),
        );
    }
    page.replacen(
        "\n.SH EXTRA\n",
        "\n.PP\nThe options of each command: \\fBskill\\-audit help\\fR \\fICOMMAND\\fR.\n.SH EXTRA\n",
        1,
    )
}
