//! `collision-lab`: the command line of Collision Lab. All the work happens in the
//! `collision_lab` library; the commands live in `src/cli/`.

mod cli;

fn main() -> std::process::ExitCode {
    cli::main()
}
