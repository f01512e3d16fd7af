//! What the command line says about itself: the help of a bare `granary`, the shells'
//! completion scripts and the man page, all written from the argument definitions.

use crate::common::*;

/// The subcommands as `granary --help` lists them (the lines under `Commands:`).
fn subcommands() -> Vec<String> {
    let help = ok(&["--help"]);
    let listed: Vec<String> = help
        .lines()
        .skip_while(|line| !line.starts_with("Commands:"))
        .skip(1)
        .take_while(|line| line.starts_with("  "))
        .filter(|line| !line.starts_with("   ")) // a name starts two spaces in
        .filter_map(|line| line.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_string)
        .collect();
    assert!(
        listed.len() > 10,
        "subcommands in the help: {listed:?}\n{help}"
    );
    listed
}

#[test]
fn a_bare_granary_prints_the_help() {
    let out = granary(&[]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("Usage: granary"), "{err}");
    assert!(err.lines().any(|l| l.starts_with("Commands:")), "{err}");
    for name in subcommands() {
        assert!(
            err.contains(&format!("  {name} ")),
            "{name} missing from:\n{err}"
        );
    }
}

#[test]
fn the_bash_completion_names_every_subcommand() {
    let script = ok(&["completions", "bash"]);
    assert!(script.contains("complete -F _granary"), "{script}");
    // The words offered after `granary`: its options and subcommands.
    let top = script
        .lines()
        .map(str::trim)
        .find(|line| line.starts_with("opts=\"-h -V"))
        .expect("the words after `granary`");
    let offered: Vec<&str> = top
        .trim_start_matches("opts=\"")
        .trim_end_matches('"')
        .split_whitespace()
        .filter(|word| !word.starts_with('-'))
        .collect();
    let names = subcommands();
    assert!(names.contains(&"completions".to_string()));
    for name in &names {
        assert!(
            offered.contains(&name.as_str()),
            "{name} not offered: {top}"
        );
        assert!(
            script.contains(&format!("granary,{name})")),
            "no completion of {name}'s arguments"
        );
    }
}

#[test]
fn every_shell_gets_a_script() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let script = ok(&["completions", shell]);
        assert!(script.contains("granary"), "{shell}: {script}");
        assert!(script.contains("calibrate"), "{shell} without calibrate");
    }
}

#[test]
fn the_man_page_has_a_name_section() {
    let page = ok(&["man"]);
    let name = page
        .lines()
        .position(|line| line.trim() == ".SH NAME")
        .expect("a NAME section");
    let after: Vec<&str> = page.lines().skip(name + 1).take(2).collect();
    assert!(after.iter().any(|l| l.contains("granary")), "{after:?}");
    assert!(page.contains(".SH SUBCOMMANDS"), "{page}");
    assert!(page.contains("solve"), "{page}");
}

#[test]
fn an_unknown_shell_is_a_usage_error() {
    let err = error(&["completions", "tcsh"]);
    assert!(err.contains("tcsh"), "{err}");
    assert!(err.contains("bash"), "the possible values: {err}");
    error(&["completions"]);
}
