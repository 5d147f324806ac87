/**
 * sitecustomize.py for run_code, put first on PYTHONPATH. It makes figures come back as images
 * without requiring matplotlib: when (and only if) the code imports matplotlib.pyplot, show()
 * saves the open figures as PNGs into $MCP_AGENT_FIGURES_DIR, savefig() to a .png also copies the
 * file there, and figures still open at exit are saved too. On Linux it also makes the Python
 * process a child subreaper, so processes its children orphan (a double fork, setsid) stay its
 * descendants, where the server can find and kill them, and at exit it kills what is left itself.
 */
export const SITECUSTOMIZE = String.raw`
import os as _os, sys as _sys

def _mcp_agent_reap():
    # Everything the code started ends with it. Orphans were adopted by this process (subreaper),
    # so the family tree below it is complete; stop them all first so none forks meanwhile.
    import signal
    parents = {}
    for name in _os.listdir('/proc'):
        if not name.isdigit():
            continue
        try:
            with open('/proc/%s/stat' % name) as f:
                stat = f.read()
            parents.setdefault(int(stat[stat.rindex(')') + 2:].split()[1]), []).append(int(name))
        except (OSError, ValueError, IndexError):
            pass
    family, todo = [], list(parents.get(_os.getpid(), []))
    while todo:
        pid = todo.pop()
        family.append(pid)
        todo.extend(parents.get(pid, []))
    for sig in (signal.SIGSTOP, signal.SIGKILL):
        for pid in family:
            try:
                _os.kill(pid, sig)
            except OSError:
                pass

def _mcp_agent_setup():
    if _sys.platform.startswith('linux'):
        try:
            import atexit, ctypes
            ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
            atexit.register(_mcp_agent_reap)
        except Exception:
            pass
    figures = _os.environ.get('MCP_AGENT_FIGURES_DIR')
    if not figures:
        return
    import atexit, importlib.abc, importlib.machinery, shutil
    state = {'count': 0, 'saved': set()}

    def next_path():
        state['count'] += 1
        return _os.path.join(figures, 'figure-%03d.png' % state['count'])

    def save_open(plt):
        for num in plt.get_fignums():
            fig = plt.figure(num)
            if id(fig) not in state['saved']:
                try:
                    fig.savefig(next_path(), format='png', dpi=100)
                except Exception as e:
                    print('run_code: could not save figure %s: %s' % (num, e), file=_sys.stderr)
        plt.close('all')

    def patch(plt):
        original_savefig = plt.savefig
        def show(*args, **kwargs):
            save_open(plt)
        def savefig(fname, *args, **kwargs):
            result = original_savefig(fname, *args, **kwargs)
            try:
                state['saved'].add(id(plt.gcf()))
                if isinstance(fname, (str, _os.PathLike)) and str(fname).lower().endswith('.png') and _os.path.isfile(fname):
                    shutil.copyfile(fname, next_path())
            except Exception:
                pass
            return result
        plt.show = show
        plt.savefig = savefig
        atexit.register(lambda: save_open(plt))

    class Finder(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path, target=None):
            if name != 'matplotlib.pyplot':
                return None
            spec = importlib.machinery.PathFinder.find_spec(name, path)
            if spec is None or spec.loader is None:
                return spec
            exec_module = spec.loader.exec_module
            def exec_and_patch(module):
                exec_module(module)
                patch(module)
            spec.loader.exec_module = exec_and_patch
            return spec

    _sys.meta_path.insert(0, Finder())

_mcp_agent_setup()
`;
