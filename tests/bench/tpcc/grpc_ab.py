#!/usr/bin/env python3
# A/B of the gRPC path: meridian-tpcc over gRPC (1 warehouse loaded in DATA_DIR, 4 terminals)
# against two builds in turn, each build's own daemon and client; prints tpmC and the CPU per
# transaction of the daemon (/proc/PID/stat) and of the client (/usr/bin/time).
# usage: grpc_ab.py DATA_DIR SECONDS BUILD_BIN_A BUILD_BIN_B [BUILD_BIN_A ...]
# (load the data first: meridian-tpcc load --driver pg --port 31101 against a daemon on DATA_DIR)
# Ports: MERIDIAN_AB_PG_PORT (31101) and MERIDIAN_AB_GRPC_PORT (31102); terminals:
# MERIDIAN_AB_TERMINALS (4). Also prints the daemon's context switches per transaction (its whole
# life, from wait4's rusage: every thread, exited ones included), which a busy machine disturbs
# less than tpmC.
import subprocess, sys, time, os, re
PG_PORT=os.environ.get('MERIDIAN_AB_PG_PORT','31101')
GRPC_PORT=os.environ.get('MERIDIAN_AB_GRPC_PORT','31102')
TERMINALS=os.environ.get('MERIDIAN_AB_TERMINALS','4')
def cpu(pid):
    f=open(f'/proc/{pid}/stat').read().split(')')[-1].split()
    return (int(f[11])+int(f[12]))/os.sysconf('SC_CLK_TCK')
data=sys.argv[1]
for b in sys.argv[3:]:
    name=b
    d=subprocess.Popen([b+'/meridiand','--data-dir='+data,'--pg-listen=127.0.0.1:'+PG_PORT,'--grpc-listen=127.0.0.1:'+GRPC_PORT,'--log-level=warn'])
    time.sleep(1.5)
    c0=cpu(d.pid)
    t=subprocess.run(['/usr/bin/time','-f','%U %S',b+'/meridian-tpcc','run','--driver','grpc','--port',GRPC_PORT,'--terminals',TERMINALS,'--duration',sys.argv[2]],capture_output=True,text=True)
    c1=cpu(d.pid)
    m=re.search(r'tpmC\s+([\d.]+)',t.stdout); tot=re.search(r'tpmTotal\s+([\d.]+)',t.stdout)
    u,s=map(float,t.stderr.strip().split('\n')[-1].split())
    txns=float(tot.group(1))*int(sys.argv[2])/60
    load=open('/proc/loadavg').read().split()[0]
    d.terminate()
    _, _, ru = os.wait4(d.pid, 0)
    d.returncode = 0
    cs = (ru.ru_nvcsw + ru.ru_nivcsw) / txns
    print(f'{name}: tpmC {m.group(1)} tpmTotal {tot.group(1)} daemon cpu/txn {(c1-c0)/txns*1000:.2f} ms client cpu/txn {(u+s)/txns*1000:.2f} ms daemon ctx switches/txn {cs:.1f} load {load}',flush=True)
