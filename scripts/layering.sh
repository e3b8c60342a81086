#!/usr/bin/env bash
# scripts/layering.sh - the include rules of DESIGN.md "Layout", checked on every source file.
#
#   bash scripts/layering.sh [ROOT]  # exit 0: every include points down; 1: the violations, one per line
#
# Units (a folder with its subfolders) and their layers, lowest first; a file may include headers of its own
# unit or of a unit on a LOWER layer, never of one on its own layer or above:
#   1 sim/ir       the schedule IR                                  (both sides: host tools and MPI ranks)
#   2 sim/coll     collectives, registry, builders                  (both sides)
#   3 sim/rank     executor, bench driver, probe                    (rank side: C11 + MPI, no GLib)
#   3 sim/host     GLib helpers: errors, parsing, files             (host side)
#   4 platforms, patterns                                           (host side)
#   5 models       closed forms, schedule evaluator, calibration    (host side)
#   6 sim/engines, sim/report                                       (host side)
#   7 sim/study    experiments, sweeps, results                     (host side)
#   8 tuner        objectives, tables, emitters                     (host side)
#   9 cli          the pact command                                 (host side)
# A rank-side or both-sides unit includes no GLib, libyaml or host-side header; a host-side unit includes no
# MPI, SMPI or rank-side header.  Quoted includes are resolved as the compiler does (the including file's
# folder first, then the folders of the Makefile's -I list), and the include graph between files must have
# no cycle.  tests/ is exempt: tests may look at any layer.
set -euo pipefail
cd "${1:-$(dirname "$0")/..}"
find sim models platforms patterns tuner cli -type f \( -name '*.c' -o -name '*.h' -o -name '*.inc' \) | sort |
    perl -e '
use strict;
use warnings;
my %layer = ("sim/ir" => 1, "sim/coll" => 2, "sim/rank" => 3, "sim/host" => 3, "platforms" => 4, "patterns" => 4,
             "models" => 5, "sim/engines" => 6, "sim/report" => 6, "sim/study" => 7, "tuner" => 8, "cli" => 9);
my %side = ("sim/ir" => "both", "sim/coll" => "both", "sim/rank" => "rank");
my @path = qw(sim/ir sim/coll sim/coll/common sim/rank sim/host sim/engines sim/study sim/report patterns
              platforms models tuner cli);
my (@files, %is_file, %edges, @bad);
while (my $f = <STDIN>) { chomp $f; push @files, $f; $is_file{$f} = 1; }
sub unit_of {
    my ($f) = @_;
    for my $u (sort { length($b) <=> length($a) } keys %layer) {
        return $u if $f eq $u || index($f, "$u/") == 0;
    }
    return undef;
}
sub side_of { my ($u) = @_; return $side{$u} // "host"; }
sub resolve {
    my ($from, $inc) = @_;
    (my $dir = $from) =~ s{/[^/]*$}{};
    for my $d ($dir, @path) {
        my $p = "$d/$inc";
        1 while $p =~ s{[^/]+/\.\./}{};
        return $p if $is_file{$p};
    }
    return undef;
}
for my $f (@files) {
    my $u = unit_of($f);
    if (!defined $u) { push @bad, "$f: in no unit of scripts/layering.sh (add its folder there)"; next; }
    open(my $fh, "<", $f) or die "$f: $!";
    my $ln = 0;
    while (my $line = <$fh>) {
        $ln++;
        if ($line =~ /^\s*#\s*include\s*<([^>]+)>/) {
            my $h = $1;
            if (side_of($u) ne "host" && $h =~ m{^(glib|gio|yaml)}) {
                push @bad, "$f:$ln: <$h>: $u runs inside MPI ranks (no GLib, no libyaml)";
            }
            if (side_of($u) eq "host" && $h =~ m{^(mpi\.h|smpi/|simgrid/|xbt/)}) {
                push @bad, "$f:$ln: <$h>: $u is host code (MPI and SMPI only in sim/rank)";
            }
            next;
        }
        next unless $line =~ /^\s*#\s*include\s*"([^"]+)"/;
        my $inc = $1;
        my $t = resolve($f, $inc);
        if (!defined $t) { push @bad, "$f:$ln: \"$inc\": no such file in the include path"; next; }
        push @{$edges{$f}}, $t;
        my $v = unit_of($t);
        next if $v eq $u;
        if ($layer{$v} >= $layer{$u}) {
            push @bad, "$f:$ln: \"$inc\": $u (layer $layer{$u}) may not include $v (layer $layer{$v})";
        } elsif (side_of($v) ne "both" && side_of($v) ne side_of($u)) {
            push @bad, "$f:$ln: \"$inc\": " . side_of($u) . "-side $u may not include " . side_of($v) . "-side $v";
        }
    }
    close $fh;
}
# Cycles between files: depth-first search, reporting each cycle once by the file that closes it.
my %state;
my @stack;
sub visit {
    my ($f) = @_;
    $state{$f} = 1;
    push @stack, $f;
    for my $t (@{$edges{$f} // []}) {
        if (($state{$t} // 0) == 1) {
            my @cyc = (@stack[(grep { $stack[$_] eq $t } 0 .. $#stack)[0] .. $#stack], $t);
            push @bad, "include cycle: " . join(" -> ", @cyc);
        } elsif (!$state{$t}) {
            visit($t);
        }
    }
    pop @stack;
    $state{$f} = 2;
}
visit($_) for grep { !$state{$_} } @files;
print "$_\n" for @bad;
printf "layering: %d files, %d includes between them, %d violations\n", scalar(@files),
    scalar(map { @$_ } values %edges), scalar(@bad);
exit(@bad ? 1 : 0);
'
